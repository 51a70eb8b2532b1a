// The endpoints callers register for webhooks (table twinspec_webhook_endpoints): a URL, the event types it gets,
// whose events (its owner; null: every one, for an admin), its signing secrets (encrypted, secrets.ts; a new one is
// returned once, at creation and rotation), paused or not. A new endpoint gets the events written after it was made.
// A deleted one stays as a tombstone (its secrets, attempts and redeliveries gone), so that requests for it answer
// 410. Bad input is an InvalidInputError naming the field (`/url`, `/events/0`, …); a URL the address policy refuses,
// or an event to redeliver that the endpoint does not receive, an UnprocessableError naming it.
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import { InvalidInputError, UnprocessableError } from "../domain/errors.js";
import { newIdWithPrefix } from "../runtime/ids.js";
import type { Database, WebhookEndpointsTable } from "../store/schema.js";
import { isPostgres } from "../store/dialect.js";
import { EventLog } from "../store/event-log.js";
import { urlRefusal, type AddressPolicy } from "./address-guard.js";
import { newSecret, secretBox, type SigningSecret } from "./secrets.js";

/** An endpoint as its owner reads it (never its secret). */
export interface WebhookEndpoint {
  endpointId: string;
  owner: string | null;
  url: string;
  events: string[];
  paused: boolean;
  /** a delivery to it failed for good since it was last changed */
  failing: boolean;
  /** the last event it is done with */
  position: string;
  createdAt: string;
  updatedAt: string;
}

/** One delivery attempt, as listed. */
export interface WebhookAttempt {
  eventId: string;
  attempt: number;
  at: string;
  status: number | null;
  latencyMs: number;
  error: string | null;
  outcome: "delivered" | "retry" | "failed";
}

/** A page of a list: its items, and the cursor of the next page (null on the last one). */
export interface WebhookPage<T> {
  items: T[];
  nextCursor: string | null;
}

type Row = Selectable<WebhookEndpointsTable>;

const MAX_URL = 2048;
const EVENT_ID = /^(0|[1-9]\d{0,15})$/;
const invalid = (pointer: string, message: string) => new InvalidInputError([{ pointer, message }]);
const refused = (pointer: string, message: string) => new UnprocessableError([{ pointer, message }]);
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
function fromCursor<T>(cursor: string, valid: (v: unknown) => v is T): T {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (valid(value)) return value;
  } catch {
    // not one of ours: refused below
  }
  throw invalid("/cursor", "is not a cursor this API issued");
}

export class WebhookEndpoints {
  private readonly box: ReturnType<typeof secretBox>;
  private readonly log: EventLog;

  /**
   * @param db - the store's Kysely handle
   * @param serverSecret - what the secrets' encryption key derives from (AUTH_SECRET)
   * @param eventTypes - the event types an endpoint may register for (the declared webhooks)
   * @param policy - which URLs are accepted besides https: ones on public addresses
   * @param onChange - called after an endpoint is registered, changed or given events to redeliver (the delivery
   *   starts listening then, and makes a pass)
   */
  constructor(
    private readonly db: Kysely<Database>,
    serverSecret: string,
    private readonly eventTypes: readonly string[],
    private readonly policy: AddressPolicy = {},
    private readonly onChange: () => void = () => {},
  ) {
    this.box = secretBox(serverSecret);
    this.log = new EventLog(db);
  }

  /** Registers an endpoint; its secret is returned this once. */
  async create(input: {
    url: unknown;
    events: unknown;
    owner: string | null;
  }): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const url = this.checkUrl(input.url);
    const events = this.checkEvents(input.events);
    const secret = newSecret();
    const now = new Date().toISOString();
    const row: Insertable<WebhookEndpointsTable> = {
      // Ids sort in creation order: the list pages by id alone.
      endpoint_id: newIdWithPrefix("whe"),
      owner: input.owner,
      url,
      events: JSON.stringify(events),
      secrets: this.box.seal([{ secret }]),
      position: await this.log.head(),
      created_at: now,
      updated_at: now,
    };
    await this.db.insertInto("twinspec_webhook_endpoints").values(row).execute();
    this.onChange();
    return { endpoint: (await this.get(row.endpoint_id))!, secret };
  }

  /** The endpoint (undefined: none, or deleted). */
  async get(endpointId: string): Promise<WebhookEndpoint | undefined> {
    const found = await this.find(endpointId);
    return found === "deleted" ? undefined : found;
  }

  /** The endpoint, "deleted" for a tombstone, undefined when there never was one. */
  async find(endpointId: string): Promise<WebhookEndpoint | "deleted" | undefined> {
    const row = await this.db
      .selectFrom("twinspec_webhook_endpoints")
      .selectAll()
      .where("endpoint_id", "=", endpointId)
      .executeTakeFirst();
    return row && (row.deleted_at ? "deleted" : view(row));
  }

  /** Every live endpoint of `owner`; undefined: every endpoint. */
  async list(owner?: string | null): Promise<WebhookEndpoint[]> {
    const items: WebhookEndpoint[] = [];
    for (let cursor: string | undefined; ; ) {
      const page = await this.page({ owner, limit: 1000, cursor });
      items.push(...page.items);
      if (!page.nextCursor) return items;
      cursor = page.nextCursor;
    }
  }

  /** A page of the live endpoints of `owner` (undefined: of everyone), oldest first: after `cursor`, or after the endpoint `after`. */
  async page({
    owner,
    limit,
    cursor,
    after,
  }: {
    owner?: string | null;
    limit: number;
    cursor?: string;
    after?: string;
  }): Promise<WebhookPage<WebhookEndpoint>> {
    let query = this.db
      .selectFrom("twinspec_webhook_endpoints")
      .selectAll()
      .where("deleted_at", "is", null)
      .orderBy("endpoint_id")
      .limit(limit + 1);
    if (owner !== undefined)
      query = owner === null ? query.where("owner", "is", null) : query.where("owner", "=", owner);
    if (cursor !== undefined) {
      const [from] = fromCursor(cursor, (v): v is [string] => Array.isArray(v) && typeof v[0] === "string");
      query = query.where("endpoint_id", ">", from);
    } else if (after !== undefined) query = query.where("endpoint_id", ">", after);
    const rows = await query.execute();
    const items = rows.slice(0, limit).map(view);
    return { items, nextCursor: rows.length > limit ? cursorOf([items.at(-1)!.endpointId]) : null };
  }

  /** Changes the URL, the events or pausing; a change clears the failing flag. */
  async update(
    endpointId: string,
    change: { url?: unknown; events?: unknown; paused?: unknown },
  ): Promise<WebhookEndpoint | undefined> {
    const set: Updateable<WebhookEndpointsTable> = { updated_at: new Date().toISOString(), failing: 0 };
    if (change.url !== undefined) set.url = this.checkUrl(change.url);
    if (change.events !== undefined) set.events = JSON.stringify(this.checkEvents(change.events));
    if (change.paused !== undefined) {
      if (typeof change.paused !== "boolean") throw invalid("/paused", "must be true or false");
      set.paused = change.paused ? 1 : 0;
    }
    await this.db
      .updateTable("twinspec_webhook_endpoints")
      .set(set)
      .where("endpoint_id", "=", endpointId)
      .where("deleted_at", "is", null)
      .execute();
    this.onChange();
    return this.get(endpointId);
  }

  /** Deletes the endpoint (a tombstone stays); false when there is no live one. */
  async delete(endpointId: string): Promise<boolean> {
    const done = await this.db
      .updateTable("twinspec_webhook_endpoints")
      .set({ deleted_at: new Date().toISOString(), secrets: "", paused: 1, lease_until: 0 })
      .where("endpoint_id", "=", endpointId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    await this.db.deleteFrom("twinspec_webhook_attempts").where("endpoint_id", "=", endpointId).execute();
    await this.db.deleteFrom("twinspec_webhook_redeliveries").where("endpoint_id", "=", endpointId).execute();
    return Number(done.numUpdatedRows) > 0;
  }

  /** A new secret, returned this once; the previous one keeps signing for `overlapMs` (default 24 h), until `previousValidUntil`. */
  async rotate(
    endpointId: string,
    overlapMs = 24 * 3600_000,
  ): Promise<{ secret: string; previousValidUntil: string } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const query = trx
        .selectFrom("twinspec_webhook_endpoints")
        .select("secrets")
        .where("endpoint_id", "=", endpointId)
        .where("deleted_at", "is", null);
      const row = await (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
      if (!row) return undefined;
      const now = Date.now();
      const [current] = this.box.open(row.secrets);
      const secret = newSecret();
      const secrets: SigningSecret[] = [{ secret }, { secret: current.secret, until: now + overlapMs }];
      await trx
        .updateTable("twinspec_webhook_endpoints")
        .set({ secrets: this.box.seal(secrets), updated_at: new Date(now).toISOString() })
        .where("endpoint_id", "=", endpointId)
        .execute();
      return { secret, previousValidUntil: new Date(now + overlapMs).toISOString() };
    });
  }

  /** The secrets that sign now, newest first. */
  signing(sealed: string, now = Date.now()): string[] {
    return this.box
      .open(sealed)
      .filter((s) => s.until === undefined || s.until > now)
      .map((s) => s.secret);
  }

  /**
   * Delivers again every event after `eventId` (the endpoint's cursor goes back to it); false when there is no live
   * endpoint. An id after the log's head, or before what the log still keeps, is an UnprocessableError at `pointer`.
   */
  async redeliverSince(endpointId: string, eventId: string, pointer = "/since"): Promise<boolean> {
    if (!EVENT_ID.test(eventId)) throw invalid(pointer, "must be an event id (a webhook-id)");
    const [head, horizon] = [await this.log.head(), await this.log.horizon()];
    if (Number(eventId) > head) throw refused(pointer, `is after the last event written (${head})`);
    if (Number(eventId) < horizon)
      throw refused(pointer, `events up to ${horizon} are no longer kept; redeliver since ${horizon} or later`);
    const done = await this.db
      .updateTable("twinspec_webhook_endpoints")
      .set({ position: eventId, attempts: 0, next_at: 0, failing: 0 })
      .where("endpoint_id", "=", endpointId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) > 0) this.onChange();
    return Number(done.numUpdatedRows) > 0;
  }

  /**
   * Delivers the event `eventId` again, alone, with the same webhook-id, ahead of the endpoint's next events; false
   * when there is no live endpoint. An event not in the log (never written, or pruned), or one this endpoint does not
   * receive (`receives`: its type and owner), is an UnprocessableError at `pointer`.
   */
  async redeliver(
    endpointId: string,
    eventId: string,
    receives: (endpoint: WebhookEndpoint, type: string, payload: unknown) => Promise<boolean>,
    pointer = "/eventId",
  ): Promise<boolean> {
    if (!EVENT_ID.test(eventId) || eventId === "0") throw invalid(pointer, "must be an event id (a webhook-id)");
    const endpoint = await this.get(endpointId);
    if (!endpoint) return false;
    const [event] = await this.log.read(Number(eventId) - 1, 1);
    if (!event || event.position !== Number(eventId))
      throw refused(pointer, `event ${eventId} is not in the event log (never written, or no longer kept)`);
    if (!endpoint.events.includes(event.type) || !(await receives(endpoint, event.type, event.event)))
      throw refused(pointer, `event ${eventId} (${event.type}) is not one this endpoint receives`);
    await this.db
      .insertInto("twinspec_webhook_redeliveries")
      .values({ endpoint_id: endpointId, position: eventId, requested_at: Date.now() })
      .onConflict((oc) => oc.columns(["endpoint_id", "position"]).doNothing())
      .execute();
    // Now, whatever wait a failed attempt set: a redelivery is asked for when the receiver is back.
    await this.db
      .updateTable("twinspec_webhook_endpoints")
      .set({ next_at: 0 })
      .where("endpoint_id", "=", endpointId)
      .execute();
    this.onChange();
    return true;
  }

  /** The endpoint's attempts, newest first. */
  async attempts(endpointId: string, limit = 100): Promise<WebhookAttempt[]> {
    return (await this.attemptPage(endpointId, { limit })).items;
  }

  /** A page of the endpoint's attempts, newest first. */
  async attemptPage(
    endpointId: string,
    { limit, cursor }: { limit: number; cursor?: string },
  ): Promise<WebhookPage<WebhookAttempt>> {
    let query = this.db
      .selectFrom("twinspec_webhook_attempts")
      .selectAll()
      .where("endpoint_id", "=", endpointId)
      .orderBy("at", "desc")
      .orderBy("position", "desc")
      .orderBy("attempt", "desc")
      .limit(limit + 1);
    if (cursor !== undefined) {
      const [at, position, attempt] = fromCursor(
        cursor,
        (v): v is [number, number, number] => Array.isArray(v) && v.length === 3 && v.every(Number.isSafeInteger),
      );
      query = query.where((eb) =>
        eb.or([
          eb("at", "<", at),
          eb.and([eb("at", "=", at), eb("position", "<", position)]),
          eb.and([eb("at", "=", at), eb("position", "=", position), eb("attempt", "<", attempt)]),
        ]),
      );
    }
    const rows = await query.execute();
    const kept = rows.slice(0, limit);
    const last = kept.at(-1);
    return {
      items: kept.map(attemptView),
      nextCursor: rows.length > limit && last ? cursorOf([Number(last.at), Number(last.position), last.attempt]) : null,
    };
  }

  /**
   * Deletes the attempts made before `before` (ms since the epoch), and each endpoint's beyond its newest `keep`;
   * resolves to how many were deleted.
   */
  async pruneAttempts(before: number, keep: number): Promise<number> {
    const old = await this.db.deleteFrom("twinspec_webhook_attempts").where("at", "<", before).executeTakeFirst();
    let deleted = Number(old.numDeletedRows);
    const crowded = await this.db
      .selectFrom("twinspec_webhook_attempts")
      .select("endpoint_id")
      .groupBy("endpoint_id")
      .having((eb) => eb.fn.countAll(), ">", keep)
      .execute();
    for (const { endpoint_id } of crowded) {
      const edge = await this.db
        .selectFrom("twinspec_webhook_attempts")
        .select("at")
        .where("endpoint_id", "=", endpoint_id)
        .orderBy("at", "desc")
        .offset(keep - 1)
        .limit(1)
        .executeTakeFirst();
      if (!edge) continue;
      const done = await this.db
        .deleteFrom("twinspec_webhook_attempts")
        .where("endpoint_id", "=", endpoint_id)
        .where("at", "<", edge.at)
        .executeTakeFirst();
      deleted += Number(done.numDeletedRows);
    }
    return deleted;
  }

  private checkUrl(value: unknown): string {
    if (typeof value !== "string" || value.length === 0 || value.length > MAX_URL)
      throw invalid("/url", `must be a URL of 1 to ${MAX_URL} characters`);
    const refusal = urlRefusal(value, this.policy);
    if (refusal) throw (refusal.startsWith("is not an absolute URL") ? invalid : refused)("/url", refusal);
    return value;
  }

  private checkEvents(value: unknown): string[] {
    if (!Array.isArray(value) || value.length === 0 || value.length > this.eventTypes.length)
      throw invalid("/events", `must list event types, among: ${this.eventTypes.join(", ")}`);
    const at = value.findIndex((v) => typeof v !== "string" || !this.eventTypes.includes(v));
    if (at >= 0)
      throw invalid(
        `/events/${at}`,
        `${JSON.stringify(value[at])} is not an event type (${this.eventTypes.join(", ")})`,
      );
    return [...new Set(value as string[])];
  }
}

function attemptView(r: Selectable<Database["twinspec_webhook_attempts"]>): WebhookAttempt {
  return {
    eventId: String(r.position),
    attempt: r.attempt,
    at: new Date(Number(r.at)).toISOString(),
    status: r.status,
    latencyMs: r.latency_ms,
    error: r.error,
    outcome: r.outcome as WebhookAttempt["outcome"],
  };
}

function view(row: Row): WebhookEndpoint {
  return {
    endpointId: row.endpoint_id,
    owner: row.owner,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    paused: Number(row.paused) === 1,
    failing: Number(row.failing) === 1,
    position: String(row.position),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
