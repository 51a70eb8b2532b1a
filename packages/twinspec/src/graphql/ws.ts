// GraphQL over WebSocket (graphql-ws, subprotocol graphql-transport-ws) on /graphql of a given http.Server.
// ws-level pings every keepAliveMs keep idle connections open through proxies; a peer that does not answer
// within the next interval is cut off, which ends its subscriptions and frees their listeners. Connections are
// budgeted (connection-limits.ts): per client address, accepted then closed 4429 past the budget, which a graphql-ws
// client reports with the reason and does not retry; and active operations per connection, the one past the budget
// answered with graphql-ws's error message while the others keep flowing.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import type { ExecutionResult, GraphQLError } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { formatError } from "./errors.js";
import { PROBLEM_TYPE } from "../runtime/problem.js";
import { problemOf, PROBLEMS } from "../runtime/problems.js";
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
  path?: string;
  keepAliveMs?: number;
  /** who connects (connection_init payload, upgrade request); throwing refuses the socket with 4403 */
  authenticate?: (params: Record<string, unknown> | undefined, request: IncomingMessage) => Promise<Principal | null>;
  limits?: Partial<Pick<ConnectionLimits, "wsConnectionsPerAddress" | "subscriptionsPerConnection">>;
  /** told of each connection or operation a limit refused */
  onRefused?: (limit: Refusal) => void;
}

/** The answer to an upgrade on another path: a problem saying where GraphQL over WebSocket is served. */
function notFound(path: string): string {
  const body = JSON.stringify(
    problemOf("no_route", `WebSocket connections are served on ${path} (subprotocol graphql-transport-ws) only.`),
  );
  const { status, title } = PROBLEMS.no_route;
  return `HTTP/1.1 ${status} ${title}\r\nConnection: close\r\nContent-Type: ${PROBLEM_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

export function attachWebSocket(server: Server, runtime: GraphqlRuntime, options: WebSocketOptions = {}) {
  const path = options.path ?? "/graphql";
  const wss = new WebSocketServer({ noServer: true });
  const perAddress = options.limits?.wsConnectionsPerAddress ?? DEFAULT_CONNECTION_LIMITS.wsConnectionsPerAddress;
  const perConnection =
    options.limits?.subscriptionsPerConnection ?? DEFAULT_CONNECTION_LIMITS.subscriptionsPerConnection;
  const addresses = new AddressCounts(perAddress);
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? "/", "http://localhost").pathname !== path) {
      socket.end(notFound(path));
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const address = req.socket.remoteAddress ?? "";
      if (!addresses.take(address)) {
        options.onRefused?.("ws_connections_per_address");
        ws.close(TOO_MANY_CONNECTIONS, tooManyConnectionsReason(perAddress));
        return;
      }
      ws.once("close", () => addresses.release(address));
      wss.emit("connection", ws, req);
    });
  };
  server.on("upgrade", onUpgrade);
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
      onSubscribe: (ctx, _id, payload) => {
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
        const requestId = randomUUID();
        return {
          schema: runtime.schema,
          document: prepared.document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: runtime.context({
            principal: callers.get(ctx) ?? null,
            requestId,
            log: runtime.log?.child({ requestId, transport: "ws" }),
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
    /** operations running on open connections (subscriptions, and queries still being answered) */
    activeOperations() {
      let n = 0;
      for (const ctx of live) n += Object.keys(ctx.subscriptions).length;
      return n;
    },
    /** Closes every socket (1001 Going away) and stops accepting; safe to call twice. */
    close() {
      server.off("upgrade", onUpgrade);
      return (closing ??= Promise.resolve(disposable.dispose()));
    },
  };
}
