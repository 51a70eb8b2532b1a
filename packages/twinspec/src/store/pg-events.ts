// What wakes the event bus across instances: PostgreSQL LISTEN/NOTIFY. Each instance holds one connection of its own
// that LISTENs on a channel per schema; a transaction that writes events NOTIFYs the channel, which PostgreSQL sends
// when it commits, to every instance (the writer's own included). A notification carries nothing: the bus reads the
// event log from its last position (durable-bus.ts), so what is missed while the listening connection is down is
// read when it is back. The connection reconnects with backoff and says so in the log and in /readyz.
import type pg from "pg";
import { sql, type Kysely } from "kysely";
import { pgDriver } from "./pg-driver.js";
import type { Logger } from "pino";
import type { Waker } from "./durable-bus.js";
import type { Database } from "./schema.js";

export interface PgBusOptions {
  /** first reconnect delay; doubles per failed attempt up to maxBackoffMs */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** how often the listening connection is checked; a silent network failure is found this way */
  heartbeatMs?: number;
}

/** Channel names are identifiers (at most 63 bytes): one per schema, so schemas sharing a database stay apart. */
const channelFor = (schema: string) => `twinspec_events:${schema}`.slice(0, 63);

export const listenerName = (schema: string) => `twinspec-listen ${schema}`.slice(0, 63);

/** What the listener needs of the database (postgres.ts's PostgresHandle is one). */
export interface PgBusDatabase {
  availability?: {
    on(event: "down" | "up", listener: (error: Error) => void): unknown;
    off(event: "down" | "up", listener: (error: Error) => void): unknown;
  };
  clientConfig: pg.ClientConfig;
  schema: string;
}

export class PgListener implements Waker {
  private wake: () => void = () => {};
  private readonly channel: string;
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private failures = 0;
  private closed = false;
  /** ends the current listening connection as lost (set while one is open) */
  private drop: ((err?: Error) => void) | undefined;
  private firstConnection: Promise<void>;
  private resolveFirst!: () => void;

  constructor(
    private readonly pg: PgBusDatabase,
    private readonly log: Logger,
    private readonly options: PgBusOptions = {},
  ) {
    this.channel = channelFor(pg.schema);
    this.firstConnection = new Promise((resolve) => (this.resolveFirst = resolve));
    // The availability probe notices a dead database within a second: the listening connection is dropped then
    // (its heartbeat alone could wait on a dead network for long), and taken up again as soon as the probe gets
    // an answer, rather than at the end of a backoff that grew during the outage.
    pg.availability?.on("down", this.onDatabaseDown);
    pg.availability?.on("up", this.onDatabaseUp);
    this.connect();
  }

  private readonly onDatabaseDown = (err: Error) => this.drop?.(err);

  private readonly onDatabaseUp = () => {
    this.failures = 0;
    if (this.closed || this.client || this.connecting) return;
    clearTimeout(this.retry);
    this.connect();
  };

  /** Resolves once the instance is listening (the first time). */
  ready(): Promise<void> {
    return this.firstConnection;
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  start(wake: () => void): void {
    this.wake = wake;
  }

  async notify(db: Kysely<Database>): Promise<void> {
    await sql`select pg_notify(${this.channel}, '')`.execute(db);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.pg.availability?.off("down", this.onDatabaseDown);
    this.pg.availability?.off("up", this.onDatabaseUp);
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private connect() {
    if (this.closed || this.connecting) return;
    this.connecting = this.open().finally(() => (this.connecting = undefined));
  }

  private async open() {
    // Named, so an operator (or a test) can tell the listening connections apart in pg_stat_activity.
    const client = new (pgDriver().Client)({
      ...this.pg.clientConfig,
      application_name: listenerName(this.pg.schema),
      keepAlive: true,
    });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      client.end().catch(() => {});
      if (this.client === client) this.client = undefined;
      if (this.drop === onLost) this.drop = undefined;
      clearInterval(this.heartbeat);
      if (!this.closed) this.scheduleReconnect(err);
    };
    client.on("error", onLost);
    client.on("end", () => onLost());
    client.on("notification", () => this.wake());
    this.drop = onLost;
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.channel)}`);
    } catch (err) {
      onLost(err as Error);
      return;
    }
    if (this.closed || lost) {
      await client.end().catch(() => {});
      return;
    }
    if (this.failures > 0) this.log.info({ attempts: this.failures }, "event bus listening again");
    this.failures = 0;
    this.client = client;
    this.resolveFirst();
    // What was written while nobody listened is in the log: read it now.
    this.wake();
    const every = this.options.heartbeatMs ?? 10_000;
    this.heartbeat = setInterval(() => void client.query("select 1").catch((err) => onLost(err)), every);
    this.heartbeat.unref();
  }

  private scheduleReconnect(err?: Error) {
    const min = this.options.minBackoffMs ?? 100;
    const max = this.options.maxBackoffMs ?? 5_000;
    const delay = Math.min(max, min * 2 ** this.failures) * (0.5 + Math.random() / 2);
    this.failures++;
    this.log.warn(
      { err, attempt: this.failures, retryInMs: Math.round(delay) },
      "event bus lost its PostgreSQL connection; reconnecting",
    );
    this.retry = setTimeout(() => this.connect(), delay);
    this.retry.unref();
  }
}
