// Failing fast while PostgreSQL is away. A probe on a connection of its own asks `select 1` every pingMs; an answer
// missing after pingTimeoutMs, or a lost connection, marks the database down (opening the probe's connection may
// take the connect timeout: a slow start is not an outage). While it is down, the guarded pool
// refuses at once (DatabaseUnavailableError → 503) instead of letting each request wait for a connection that
// will not come, and the connections it had are dropped: queries stuck on a dead network end now, and no stale
// connection is handed out later. The probe keeps trying; its first answer marks the database up, and the next
// request opens fresh connections. No restart is needed either way.
import { EventEmitter } from "node:events";
import type pg from "pg";
import { pgDriver } from "./pg-driver.js";
import type { Logger } from "pino";
import { DatabaseUnavailableError, unavailable } from "./unavailable.js";

export interface AvailabilityOptions {
  /** how often the probe asks (ms, default 250) */
  pingMs?: number;
  /** how long an answer may take before the database counts as down (ms, default 500) */
  pingTimeoutMs?: number;
  logger?: Logger;
}

/** Up or down, as the probe last found it; emits "down" and "up" on each change. */
export class Availability extends EventEmitter<{ down: [DatabaseUnavailableError]; up: [] }> {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private probing: Promise<void> | undefined;
  private failure: DatabaseUnavailableError | undefined;
  private downSince = 0;
  private closed = false;
  private readonly pingMs: number;
  private readonly pingTimeoutMs: number;
  /**
   * How long the probe's connect may take: the connect timeout of every connection of ours (openPostgres sets it),
   * never less than a ping. Opening a connection (a backend started, authentication) can take far longer than a
   * `select 1` on a busy machine; a refused connect still fails at once.
   */
  private readonly connectMs: number;

  constructor(
    private readonly clientConfig: pg.ClientConfig,
    private readonly options: AvailabilityOptions = {},
  ) {
    super();
    this.pingMs = options.pingMs ?? 250;
    this.pingTimeoutMs = options.pingTimeoutMs ?? 500;
    this.connectMs = Math.max(this.pingTimeoutMs, clientConfig.connectionTimeoutMillis ?? 0);
  }

  /** Why the database counts as down (undefined while up). */
  get error(): DatabaseUnavailableError | undefined {
    return this.failure;
  }

  start() {
    this.schedule(0);
  }

  /** A request met a connection error: probe now rather than at the next tick. */
  suspect() {
    if (this.closed || this.probing) return;
    this.schedule(0);
  }

  async close() {
    this.closed = true;
    clearTimeout(this.timer);
    await this.probing;
    this.dropClient();
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.probing = this.probe().finally(() => {
        this.probing = undefined;
        if (!this.closed) this.schedule(this.pingMs);
      });
    }, ms);
    this.timer.unref();
  }

  private async probe() {
    try {
      if (!this.client) {
        // Named, so an operator can tell it apart in pg_stat_activity.
        const client = new (pgDriver().Client)({
          ...this.clientConfig,
          application_name: "twinspec-probe",
          connectionTimeoutMillis: this.connectMs,
          keepAlive: true,
        });
        client.on("error", () => this.dropClient(client)); // found by the next ping; without a listener it would crash
        this.client = client;
        await deadline(client.connect(), this.connectMs);
      }
      await deadline(this.client.query("select 1"), this.pingTimeoutMs);
    } catch (error) {
      this.dropClient();
      if (!this.closed) this.markDown(error);
      return;
    }
    this.markUp();
  }

  private markDown(error: unknown) {
    if (this.failure) return;
    this.failure =
      unavailable(error) ?? new DatabaseUnavailableError("unreachable", (error as Error).message, { cause: error });
    this.downSince = Date.now();
    this.options.logger?.warn({ err: error }, "database unreachable: answering 503 until it is back");
    this.emit("down", this.failure);
  }

  private markUp() {
    if (!this.failure) return;
    this.failure = undefined;
    this.options.logger?.info({ downMs: Date.now() - this.downSince }, "database reachable again");
    this.emit("up");
  }

  private dropClient(client = this.client) {
    if (!client) return;
    if (this.client === client) this.client = undefined;
    // end() destroys the socket when a query is still waiting (a dead network would hold a graceful end open).
    client.end().catch(() => {});
  }
}

/**
 * Rejects when `work` has not settled `ms` after the call. When the timer fires, one more turn of the event loop
 * lets an answer that was already read (but queued behind a busy loop) count: only the database's own silence
 * times out, not ours.
 */
function deadline<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(
      () => setImmediate(() => !settled && reject(new Error(`no answer from the database within ${ms} ms`))),
      ms,
    );
    work.then(
      (value) => ((settled = true), clearTimeout(timer), resolve(value)),
      (error) => ((settled = true), clearTimeout(timer), reject(error)),
    );
  });
}

/** The part of pg.Pool that Kysely, the event bus and /readyz use. */
interface PoolLike {
  connect(): Promise<pg.PoolClient>;
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
  end(): Promise<void>;
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly max: number;
}

/** Takes `item` out of `list`, where it is (waiters are served first in, first out: near the front). */
function remove<T>(list: T[], item: T): void {
  const at = list.indexOf(item);
  if (at >= 0) list.splice(at, 1);
}

type Checkout = (error: Error | undefined, client?: pg.PoolClient) => void;

/**
 * A pg pool behind the availability probe: refuses at once while the database is down, and on going down drops
 * every connection it had (in use or idle) by starting over with a new pool.
 */
export class GuardedPool implements PoolLike {
  private pool: pg.Pool;
  private readonly inUse = new Set<pg.PoolClient>();
  // An array, not a Set: a Set that every query adds to and deletes from made V8 promote the young objects of
  // queries into the old generation, to be freed only by full collections.
  private readonly waiting: ((error: Error) => void)[] = [];

  constructor(
    private readonly newPool: () => pg.Pool,
    readonly availability: Availability,
  ) {
    this.pool = this.open();
    availability.on("down", (error) => this.dropAll(error));
  }

  connect(): Promise<pg.PoolClient> {
    return new Promise((resolve, reject) =>
      this.checkout((error, client) => (error ? reject(error) : resolve(client!))),
    );
  }

  /** One query on a connection of the pool, returned to it before the answer is. */
  query(config: pg.QueryConfig): Promise<pg.QueryResult> {
    return new Promise((resolve, reject) =>
      this.checkout((error, client) => {
        if (error) return reject(error);
        client!.query(config, (failure: Error | undefined, result: pg.QueryResult) => {
          client!.release();
          if (failure) reject(failure);
          else resolve(result);
        });
      }),
    );
  }

  private checkout(done: Checkout): void {
    const down = this.availability.error;
    if (down) return done(down);
    let givenUp = false;
    const giveUp = (error: Error) => {
      givenUp = true;
      remove(this.waiting, giveUp);
      // Refused, timed out, or given up on: the probe looks now. The error stays as pg said it (503 at the edge).
      if (!(error instanceof DatabaseUnavailableError)) this.availability.suspect();
      done(error);
    };
    this.waiting.push(giveUp);
    this.pool.connect((error: Error | undefined, client: pg.PoolClient | undefined) => {
      // Given up on while waiting (the database went down): this connection is not to be used.
      if (givenUp) return client?.release(new Error("the database went down meanwhile"));
      if (error) return giveUp(error);
      remove(this.waiting, giveUp);
      this.inUse.add(client!);
      done(undefined, client);
    });
  }

  /**
   * A pool whose connections report to the probe: pg emits "error" on a checked-out client whose connection dies
   * (the pool listens only while it is idle), and an unheard "error" would end the process.
   */
  private open(): pg.Pool {
    const pool = this.newPool();
    pool.on("connect", (client) => client.on("error", () => this.inUse.has(client) && this.availability.suspect()));
    pool.on("release", (_error, client) => this.inUse.delete(client));
    return pool;
  }

  /** Kysely reports query errors here (its log hook): a lost connection makes the probe look at once. */
  observe(error: unknown) {
    if (unavailable(error)?.kind === "unreachable") this.availability.suspect();
  }

  async end(): Promise<void> {
    await this.availability.close();
    await this.pool.end();
  }

  get totalCount() {
    return this.pool.totalCount;
  }
  get idleCount() {
    return this.pool.idleCount;
  }
  get waitingCount() {
    return this.pool.waitingCount;
  }
  get max() {
    return this.pool.options.max;
  }

  private dropAll(error: DatabaseUnavailableError) {
    const old = this.pool;
    this.pool = this.open();
    for (const giveUp of this.waiting.splice(0)) giveUp(error);
    // Queries in flight on the old connections fail now (→ 503) instead of waiting on a dead socket.
    // (A pool's client is a pg.Client; @types/pg leaves end() off PoolClient.)
    for (const client of this.inUse) (client as unknown as pg.Client).end().catch(() => {});
    this.inUse.clear();
    old.end().catch(() => {});
  }
}
