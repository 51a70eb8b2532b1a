// Delivering webhooks from the durable event log, at least once, in event order per endpoint. Each endpoint reads the
// log from its own cursor (`position`); an instance claims an endpoint with a lease (on PostgreSQL picking rows with
// FOR UPDATE SKIP LOCKED, so instances share the endpoints instead of queueing on one), delivers the events after its
// cursor that it receives (its types, its owner's), and moves the cursor past each once the receiver answered 2xx.
// A failed attempt waits (the schedule's next delay with jitter, or the receiver's Retry-After if longer) and the
// endpoint's later events wait behind it; after the last attempt the event is marked failed, the endpoint flagged,
// and the cursor moves on. Every write is fenced by the claim's version: an instance that lost its lease (it was
// slow, or killed: the lease runs out) records nothing more, and the next claim resends the event in flight, with the
// same webhook-id, so a receiver drops a repeat. A single event asked for again (twinspec_webhook_redeliveries) is sent
// ahead of the cursor's, with the same retries.
import type { Kysely, Selectable, Updateable } from "kysely";
import type { Logger } from "pino";
import { isPostgres } from "../store/dialect.js";
import { EventLog } from "../store/event-log.js";
import type { Database, WebhookEndpointsTable } from "../store/schema.js";
import type { AddressPolicy } from "./address-guard.js";
import type { WebhookEndpoints } from "./endpoints.js";
import { send, type AttemptResult } from "./sender.js";

/** Delivery's timing (WEBHOOK_* through `serve`); every field is optional. */
export interface DeliveryOptions {
  /** the waits between attempts, in ms: one attempt more than its length (default 5 s … 8 h, over 24 h in all) */
  scheduleMs?: number[];
  /** how long a claim on an endpoint lasts without progress (ms; default 30 000) */
  leaseMs?: number;
  /** how often endpoints are looked at though nothing woke the worker (ms; default 1000) */
  pollMs?: number;
  /** how long a receiver has to answer (ms; default 10 000) */
  timeoutMs?: number;
  /** endpoints delivered to at once by one instance (default 32) */
  concurrency?: number;
  /** which URLs and addresses may be reached besides https: on public addresses */
  policy?: AddressPolicy;
  /** how long attempts are kept for listing (ms; default 7 days, WEBHOOK_ATTEMPT_RETENTION_MS) */
  attemptRetentionMs?: number;
  /** attempts kept per endpoint, the newest (default 1000, WEBHOOK_ATTEMPTS_PER_ENDPOINT) */
  attemptsPerEndpoint?: number;
  /** how often old attempts are deleted (ms; default 10 min) */
  pruneEveryMs?: number;
}

/** An event's owner (the subject whose event it is); null: nobody's; undefined: unknown (only an admin's endpoints get it). */
export type EventOwner = (type: string, payload: unknown) => Promise<string | null | undefined>;

const DEFAULT_SCHEDULE = [5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800, 28_800].map((s) => s * 1000);
const BATCH = 100;

type Claimed = Selectable<WebhookEndpointsTable>;

export class WebhookDelivery {
  private readonly log: EventLog;
  private readonly schedule: number[];
  private readonly leaseMs: number;
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly policy: AddressPolicy;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private failing = false;
  private readonly types: Set<string>;
  /** called whenever a pass finds an endpoint to deliver to (setup.ts starts listening to the bus then) */
  onClaim: (() => void) | undefined;
  /** what the metrics count */
  readonly counts = { delivered: 0, failed: 0, retried: 0 };

  constructor(
    private readonly db: Kysely<Database>,
    private readonly endpoints: WebhookEndpoints,
    types: readonly string[],
    private readonly ownerOf: EventOwner,
    private readonly logger: Logger,
    private readonly options: DeliveryOptions = {},
  ) {
    this.log = new EventLog(db);
    this.types = new Set(types);
    this.schedule = options.scheduleMs ?? DEFAULT_SCHEDULE;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.concurrency = options.concurrency ?? 32;
    this.policy = options.policy ?? {};
  }

  /** Starts delivering; resolves once the first pass is over (a failed pass is logged and retried, never thrown). */
  start(): Promise<void> {
    if (!this.stopped) return Promise.resolve();
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.options.pollMs ?? 1000).unref();
    this.kick();
    return this.running ?? Promise.resolve();
  }

  /** Delivers now (a committed event calls this); overlapping kicks coalesce into one more pass. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) return void (this.again = true);
    this.running = this.drain()
      .then(() => {
        if (this.failing) this.logger.info("webhook delivery working again");
        this.failing = false;
      })
      .catch((err) => {
        if (!this.failing) this.logger.error({ err }, "webhook delivery pass failed; retrying every poll");
        this.failing = true;
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** The age in ms of the oldest event some endpoint still has to receive (0: none). */
  async oldestUndeliveredMs(now = Date.now()): Promise<number> {
    const row = await this.db
      .selectFrom("twinspec_webhook_endpoints as e")
      .innerJoin("twinspec_events as v", (j) => j.onRef("v.position", ">", "e.position"))
      .where("e.paused", "=", 0)
      .where("e.deleted_at", "is", null)
      .where("v.type", "in", [...this.types])
      .select((eb) => eb.fn.min("v.created_at").as("oldest"))
      .executeTakeFirst();
    return row?.oldest ? Math.max(0, now - Number(row.oldest)) : 0;
  }

  private async drain() {
    while (!this.stopped) {
      const head = await this.log.head();
      const claimed = await this.claim(head);
      if (claimed.length === 0) return;
      this.onClaim?.();
      await Promise.all(
        claimed.map((endpoint) =>
          this.serve(endpoint).catch((err) =>
            this.logger.warn({ err, endpointId: endpoint.endpoint_id }, "webhook endpoint pass failed"),
          ),
        ),
      );
    }
  }

  /** Endpoints due and behind the log's head that no instance holds, each now held by this one. */
  private async claim(head: number): Promise<Claimed[]> {
    const now = Date.now();
    // Behind the log's head, or with an event to send again.
    const due = (qb: any) =>
      qb
        .where("paused", "=", 0)
        .where("deleted_at", "is", null)
        .where("next_at", "<=", now)
        .where("lease_until", "<", now)
        .where((eb: any) =>
          eb.or([
            eb("position", "<", head),
            eb.exists(
              eb
                .selectFrom("twinspec_webhook_redeliveries as r")
                .select("r.position")
                .whereRef("r.endpoint_id", "=", "twinspec_webhook_endpoints.endpoint_id"),
            ),
          ]),
        );
    const take = this.db
      .updateTable("twinspec_webhook_endpoints")
      .set((eb) => ({ lease_until: now + this.leaseMs, version: eb("version", "+", 1) }));
    if (isPostgres(this.db)) {
      const ids = due(this.db.selectFrom("twinspec_webhook_endpoints").select("endpoint_id"))
        .orderBy("next_at")
        .limit(this.concurrency)
        .forUpdate()
        .skipLocked();
      return await take.where("endpoint_id", "in", ids).returningAll().execute();
    }
    const rows: { endpoint_id: string }[] = await due(
      this.db.selectFrom("twinspec_webhook_endpoints").select("endpoint_id"),
    )
      .orderBy("next_at")
      .limit(this.concurrency)
      .execute();
    if (rows.length === 0) return [];
    return (await due(
      take.where(
        "endpoint_id",
        "in",
        rows.map((r) => r.endpoint_id),
      ),
    )
      .returningAll()
      .execute()) as Claimed[];
  }

  /** Delivers to one claimed endpoint until it is caught up, waits (a failed attempt), or the claim is lost. */
  private async serve(endpoint: Claimed) {
    const events = new Set((JSON.parse(endpoint.events) as string[]).filter((t) => this.types.has(t)));
    let position = Number(endpoint.position);
    let attempts = endpoint.attempts;
    const fence = (set: Updateable<WebhookEndpointsTable>) =>
      this.db
        .updateTable("twinspec_webhook_endpoints")
        .set({ lease_until: Date.now() + this.leaseMs, ...set })
        .where("endpoint_id", "=", endpoint.endpoint_id)
        .where("version", "=", endpoint.version)
        .executeTakeFirst()
        .then((r) => Number(r.numUpdatedRows) === 1);
    if (!(await this.replay(endpoint, fence))) return;
    for (;;) {
      if (this.stopped) return void (await fence({ lease_until: 0 }));
      const batch = await this.log.read(position, BATCH);
      if (batch.length === 0) return void (await this.release(endpoint));
      for (const event of batch) {
        if (!events.has(event.type) || !(await this.receives(endpoint.owner, event.type, event.event))) {
          position = event.position;
          continue;
        }
        // Past what it does not receive, then the attempt at this event.
        if (position !== Number(endpoint.position) && !(await fence({ position }))) return;
        const secrets = this.endpoints.signing(endpoint.secrets);
        const result = await send(
          { url: endpoint.url, id: String(event.position), type: event.type, data: event.event, secrets },
          this.policy,
          this.timeoutMs,
        );
        attempts += 1;
        const last = attempts > this.schedule.length;
        const outcome = result.error === undefined ? "delivered" : last ? "failed" : "retry";
        await this.record(endpoint.endpoint_id, event.position, attempts, result, outcome);
        if (outcome === "retry") {
          this.counts.retried++;
          const wait = Math.max(jitter(this.schedule[attempts - 1]), (result.retryAfterSeconds ?? 0) * 1000);
          await fence({ position, attempts, next_at: Date.now() + wait, lease_until: 0 });
          return;
        }
        if (outcome === "failed") {
          this.counts.failed++;
          this.logger.warn(
            { endpointId: endpoint.endpoint_id, eventId: String(event.position), attempts, error: result.error },
            "webhook delivery failed after its last attempt",
          );
        } else this.counts.delivered++;
        position = event.position;
        attempts = 0;
        if (!(await fence({ position, attempts: 0, ...(outcome === "failed" ? { failing: 1 } : {}) }))) return;
        endpoint.position = position;
      }
      if (!(await fence({ position }))) return;
      endpoint.position = position;
    }
  }

  /**
   * Sends the single events asked for again, oldest first, each until it is received or fails for good; false when
   * the endpoint is to wait (a failed attempt) or the claim was lost.
   */
  private async replay(endpoint: Claimed, fence: (set: Updateable<WebhookEndpointsTable>) => Promise<boolean>) {
    const queued = await this.db
      .selectFrom("twinspec_webhook_redeliveries")
      .selectAll()
      .where("endpoint_id", "=", endpoint.endpoint_id)
      .orderBy("position")
      .execute();
    for (const entry of queued) {
      if (this.stopped) {
        await fence({ lease_until: 0 });
        return false;
      }
      const position = Number(entry.position);
      const done = () =>
        this.db
          .deleteFrom("twinspec_webhook_redeliveries")
          .where("endpoint_id", "=", endpoint.endpoint_id)
          .where("position", "=", entry.position)
          .execute();
      const [event] = await this.log.read(position - 1, 1);
      // No longer in the log (pruned since it was asked for): nothing to send.
      if (!event || event.position !== position) {
        await done();
        continue;
      }
      const result = await send(
        {
          url: endpoint.url,
          id: String(position),
          type: event.type,
          data: event.event,
          secrets: this.endpoints.signing(endpoint.secrets),
        },
        this.policy,
        this.timeoutMs,
      );
      const attempts = entry.attempts + 1;
      const outcome = result.error === undefined ? "delivered" : attempts > this.schedule.length ? "failed" : "retry";
      if (!(await fence({}))) return false;
      await this.record(endpoint.endpoint_id, position, attempts, result, outcome);
      if (outcome === "retry") {
        this.counts.retried++;
        await this.db
          .updateTable("twinspec_webhook_redeliveries")
          .set({ attempts })
          .where("endpoint_id", "=", endpoint.endpoint_id)
          .where("position", "=", entry.position)
          .execute();
        const wait = Math.max(jitter(this.schedule[attempts - 1]), (result.retryAfterSeconds ?? 0) * 1000);
        await fence({ next_at: Date.now() + wait, lease_until: 0 });
        return false;
      }
      if (outcome === "failed") {
        this.counts.failed++;
        if (!(await fence({ failing: 1 }))) return false;
      } else this.counts.delivered++;
      await done();
    }
    return true;
  }

  private async release(endpoint: Claimed) {
    await this.db
      .updateTable("twinspec_webhook_endpoints")
      .set({ lease_until: 0 })
      .where("endpoint_id", "=", endpoint.endpoint_id)
      .where("version", "=", endpoint.version)
      .execute();
  }

  /**
   * Whether an endpoint of `owner` (null: an admin's, every event) receives this event: one of nobody's (an event
   * type owned by "none") goes to every endpoint registered for it; one of an owner's, to that owner's.
   */
  async receives(owner: string | null, type: string, payload: unknown): Promise<boolean> {
    if (owner === null) return true;
    const of = await this.ownerOf(type, payload);
    return of === null || of === owner;
  }

  private async record(endpointId: string, position: number, attempt: number, result: AttemptResult, outcome: string) {
    await this.db
      .insertInto("twinspec_webhook_attempts")
      .values({
        endpoint_id: endpointId,
        position,
        attempt,
        at: Date.now(),
        status: result.status ?? null,
        latency_ms: result.latencyMs,
        error: result.error?.slice(0, 500) ?? null,
        outcome,
      })
      .execute();
  }
}

/** A wait spread over ±20 %, so endpoints failing together do not retry together. */
const jitter = (ms: number) => Math.round(ms * (0.8 + Math.random() * 0.4));
