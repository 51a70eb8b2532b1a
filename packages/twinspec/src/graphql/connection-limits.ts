// Budgets of long-lived GraphQL connections: WebSocket connections and SSE streams per client address, active
// operations per WebSocket connection. The defaults are far above what a browser opens; they stop one address from
// holding the server's sockets and subscription listeners.
import { GraphQLError } from "graphql";

export interface ConnectionLimits {
  /** open WebSocket connections on /graphql from one address (WS_MAX_CONNECTIONS_PER_ADDRESS) */
  wsConnectionsPerAddress: number;
  /** active operations on one WebSocket connection (WS_MAX_SUBSCRIPTIONS_PER_CONNECTION) */
  subscriptionsPerConnection: number;
  /** open event streams on /graphql/stream from one address (SSE_MAX_STREAMS_PER_ADDRESS) */
  sseStreamsPerAddress: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  wsConnectionsPerAddress: 100,
  subscriptionsPerConnection: 100,
  sseStreamsPerAddress: 100,
};

/** Which limit refused: the `limit` label of graphql_limit_refusals_total. */
export type Refusal = "ws_connections_per_address" | "ws_subscriptions_per_connection" | "sse_streams_per_address";

/** graphql-ws close code for a connection past its address's budget (graphql-ws clients do not retry 4429). */
export const TOO_MANY_CONNECTIONS = 4429;

/** Open connections by client address; an address leaves the map with its last connection. */
export class AddressCounts {
  private readonly counts = new Map<string, number>();
  constructor(private readonly limit: number) {}

  /** Counts one more for `address`, or answers false (nothing counted) when it already has `limit`. */
  take(address: string): boolean {
    const open = this.counts.get(address) ?? 0;
    if (open >= this.limit) return false;
    this.counts.set(address, open + 1);
    return true;
  }

  release(address: string): void {
    const open = (this.counts.get(address) ?? 1) - 1;
    if (open > 0) this.counts.set(address, open);
    else this.counts.delete(address);
  }
}

/** The graphql-ws close reason of a refused connection (at most 123 bytes). */
export const tooManyConnectionsReason = (limit: number) =>
  `Too many WebSocket connections from this address (limit ${limit})`;

/** The error a subscription past its connection's budget gets; the connection stays open. */
export function subscriptionLimitError(limit: number): GraphQLError {
  return new GraphQLError(
    `Too many active subscriptions on this connection (limit ${limit}); complete one before starting another.`,
    {
      extensions: { code: "SUBSCRIPTION_LIMIT_EXCEEDED", limit },
    },
  );
}
