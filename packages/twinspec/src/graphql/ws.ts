// GraphQL over WebSocket (graphql-ws, subprotocol graphql-transport-ws): `accept` answers an upgrade request that
// has come through the server's edge like any other (server/upgrade.ts), so the upgrade has its request id, log line,
// metrics and the application's middleware, and the headers set on it are sent with the 101. Each operation's log
// lines carry the upgrade's request id and the operation's id.
// ws-level pings every keepAliveMs keep idle connections open through proxies; a peer that does not answer
// within the next interval is cut off, which ends its subscriptions and frees their listeners. Connections are
// budgeted (connection-limits.ts): per client address, accepted then closed 4429 past the budget, which a graphql-ws
// client reports with the reason and does not retry; and active operations per connection, the one past the budget
// answered with graphql-ws's error message while the others keep flowing.
import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";
import type { ExecutionResult, GraphQLError } from "graphql";
import type { Context } from "koa";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { formatError } from "./errors.js";
import { refusalOf } from "../runtime/problems.js";
import { upgradeOf } from "../server/upgrade.js";
import type { GraphqlRuntime } from "./runtime.js";
import type { Principal } from "../auth/principal.js";
import { callerOf } from "../rate-limit/fields.js";
import { rateLimitedError } from "./rate-limit.js";
import {
  AddressCounts,
  DEFAULT_CONNECTION_LIMITS,
  subscriptionLimitError,
  TOO_MANY_CONNECTIONS,
  tooManyConnectionsReason,
  type ConnectionLimits,
  type Refusal,
} from "./connection-limits.js";

export interface WebSocketOptions {
  keepAliveMs?: number;
  /** who connects (connection_init payload, upgrade request); throwing refuses the socket with 4403 */
  authenticate?: (params: Record<string, unknown> | undefined, request: IncomingMessage) => Promise<Principal | null>;
  limits?: Partial<Pick<ConnectionLimits, "wsConnectionsPerAddress" | "subscriptionsPerConnection">>;
  /** told of each connection or operation a limit refused */
  onRefused?: (limit: Refusal) => void;
}

/** Headers of the answer that the 101 does not repeat: ws writes its own, and there is no body. */
const NOT_ON_101 = new Set(["connection", "upgrade", "content-length", "content-type", "transfer-encoding", "date"]);

/** `Name: value` lines of the headers the edge and the application set on the upgrade's response. */
function headerLines(headers: OutgoingHttpHeaders): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || NOT_ON_101.has(name) || name.startsWith("sec-websocket-")) continue;
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
  }
  return lines;
}

/** What became of an upgrade request: upgraded, or refused by ws's handshake checks (their reason). */
type Handshake = { upgraded: true } | { upgraded: false; reason?: string };

export function attachWebSocket(runtime: GraphqlRuntime, options: WebSocketOptions = {}) {
  const wss = new WebSocketServer({ noServer: true });
  const perAddress = options.limits?.wsConnectionsPerAddress ?? DEFAULT_CONNECTION_LIMITS.wsConnectionsPerAddress;
  const perConnection =
    options.limits?.subscriptionsPerConnection ?? DEFAULT_CONNECTION_LIMITS.subscriptionsPerConnection;
  const addresses = new AddressCounts(perAddress);
  // Each upgrade in hand: the headers its 101 carries, how it ends, its request id (for its operations' log lines).
  const handshakes = new WeakMap<IncomingMessage, { headers: string[]; settle: (outcome: Handshake) => void }>();
  const requestIds = new WeakMap<IncomingMessage, string>();
  wss.on("headers", (lines, req) => lines.push(...(handshakes.get(req)?.headers ?? [])));
  wss.on("wsClientError", (error, _socket, req) =>
    handshakes.get(req)?.settle({ upgraded: false, reason: error.message }),
  );

  /** Upgrades the request of `ctx` (GET /graphql with Upgrade: websocket) or throws what refused it. */
  const accept = async (ctx: Context): Promise<void> => {
    const { req } = ctx;
    const upgrade = upgradeOf(req);
    if (!upgrade) throw refusalOf("bad_request", "GraphQL over WebSocket needs an upgrade request.");
    requestIds.set(req, ctx.state.requestId as string);
    const outcome = await new Promise<Handshake>((settle) => {
      handshakes.set(req, { headers: headerLines(ctx.res.getHeaders()), settle });
      // A socket that closes first (the client left, or ws refused it while closing) was not upgraded.
      upgrade.socket.once("close", () => settle({ upgraded: false }));
      wss.handleUpgrade(req, upgrade.socket, upgrade.head, (ws) => {
        settle({ upgraded: true });
        const address = req.socket.remoteAddress ?? "";
        if (!addresses.take(address)) {
          options.onRefused?.("ws_connections_per_address");
          ws.close(TOO_MANY_CONNECTIONS, tooManyConnectionsReason(perAddress));
          return;
        }
        ws.once("close", () => addresses.release(address));
        wss.emit("connection", ws, req);
      });
    });
    handshakes.delete(req);
    if (outcome.upgraded) {
      ctx.status = 101;
      ctx.respond = false;
      return;
    }
    if (outcome.reason === undefined) {
      // Nothing can be answered on a closed socket; the log line says the server could not take it.
      ctx.status = 503;
      ctx.respond = false;
      return;
    }
    if (req.method !== "GET")
      throw refusalOf("method_not_allowed", "A WebSocket upgrade is a GET.", {}, { Allow: "GET" });
    throw refusalOf(
      "bad_request",
      `The WebSocket handshake is not valid: ${outcome.reason}. GraphQL over WebSocket speaks graphql-transport-ws.`,
      {},
      { "Sec-WebSocket-Version": "13" },
    );
  };
  const callers = new WeakMap<object, Principal | null>();
  // graphql-ws's context of each open connection: its `subscriptions` are the operations running on it (the one
  // being subscribed included), kept by graphql-ws itself, so nothing here can drift from what runs.
  const live = new Set<{ subscriptions: object }>();
  const disposable = useServer(
    {
      schema: runtime.schema,
      onConnect: async (ctx) => {
        live.add(ctx);
        try {
          callers.set(
            ctx,
            options.authenticate ? await options.authenticate(ctx.connectionParams, ctx.extra.request) : null,
          );
          return true;
        } catch {
          return false; // graphql-ws closes with 4403 Forbidden
        }
      },
      onClose: (ctx) => {
        live.delete(ctx);
      },
      execute: runtime.execute,
      subscribe: runtime.subscribe,
      onSubscribe: (ctx, id, payload) => {
        if (Object.keys(ctx.subscriptions).length > perConnection) {
          options.onRefused?.("ws_subscriptions_per_connection");
          return [subscriptionLimitError(perConnection)];
        }
        // A persisted document: { query: "", documentId } or APQ's extensions.persistedQuery (see persisted.ts).
        const resolved = runtime.persisted.resolve(payload);
        if (resolved?.errors) return resolved.errors;
        const prepared = runtime.prepare(resolved?.query ?? payload.query, payload.variables);
        const spent = runtime.charge(
          callerOf(callers.get(ctx), () => ctx.extra.request.socket.remoteAddress),
          prepared,
          payload.operationName,
        );
        if (spent && !spent.allowed) return [rateLimitedError(spent)];
        if (prepared.errors) return prepared.errors.map(formatError) as GraphQLError[];
        const requestId = requestIds.get(ctx.extra.request) ?? "";
        return {
          schema: runtime.schema,
          document: prepared.document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: runtime.context({
            principal: callers.get(ctx) ?? null,
            requestId,
            log: runtime.log?.child({ requestId, operation: id, transport: "ws" }),
          }),
        };
      },
      onNext: (_ctx, _id, _payload, _args, result: ExecutionResult) =>
        result.errors
          ? { ...result, errors: result.errors.map((e) => (formatError(e) as GraphQLError).toJSON()) }
          : undefined,
    },
    wss,
    options.keepAliveMs ?? 12_000,
  );
  let closing: Promise<void> | undefined;
  return {
    wss,
    accept,
    /** operations running on open connections (subscriptions, and queries still being answered) */
    activeOperations() {
      let n = 0;
      for (const ctx of live) n += Object.keys(ctx.subscriptions).length;
      return n;
    },
    /** Closes every socket (1001 Going away) and stops accepting; safe to call twice. */
    close() {
      return (closing ??= Promise.resolve(disposable.dispose()));
    },
  };
}
