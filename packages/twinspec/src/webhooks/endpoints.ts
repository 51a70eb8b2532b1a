// The endpoints callers register for webhooks (table twinspec_webhook_endpoints): a URL, the event types it gets,
// whose events (its owner; null: every one, for an admin), its signing secrets (encrypted, secrets.ts; a new one is
// returned once, at creation and rotation), paused or not. A new endpoint gets the events written after it was made.
// Bad input is a WebhookInputError naming the field.
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import { randomUUID } from "node:crypto";
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

/** Input that cannot be accepted, naming the field (a 422 naming it, over REST). */
export class WebhookInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

type Row = Selectable<WebhookEndpointsTable>;

const MAX_URL = 2048;

export class WebhookEndpoints {
  private readonly box: ReturnType<typeof secretBox>;
  private readonly log: EventLog;

  /**
   * @param db - the store's Kysely handle
   * @param serverSecret - what the secrets' encryption key derives from (AUTH_SECRET)
   * @param eventTypes - the event types an endpoint may register for (the declared webhooks)
   * @param policy - which URLs are accepted besides https: ones on public addresses
   * @param onCreate - called after each endpoint is registered (the delivery starts listening then)
   */
  constructor(
    private readonly db: Kysely<Database>,
    serverSecret: string,
    private readonly eventTypes: readonly string[],
    private readonly policy: AddressPolicy = {},
    private readonly onCreate: () => void = () => {},
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
      endpoint_id: `whe_${randomUUID().replace(/-/g, "")}`,
      owner: input.owner,
      url,
      events: JSON.stringify(events),
      secrets: this.box.seal([{ secret }]),
      position: await this.log.head(),
      created_at: now,
      updated_at: now,
    };
    await this.db.insertInto("twinspec_webhook_endpoints").values(row).execute();
    this.onCreate();
    return { endpoint: (await this.get(row.endpoint_id))!, secret };
  }

  async get(endpointId: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.db
      .selectFrom("twinspec_webhook_endpoints")
      .selectAll()
      .where("endpoint_id", "=", endpointId)
      .executeTakeFirst();
    return row && view(row);
  }

  /** Every endpoint of `owner`; undefined: every endpoint. */
  async list(owner?: string | null): Promise<WebhookEndpoint[]> {
    let query = this.db
      .selectFrom("twinspec_webhook_endpoints")
      .selectAll()
      .orderBy("created_at")
      .orderBy("endpoint_id");
    if (owner !== undefined)
      query = owner === null ? query.where("owner", "is", null) : query.where("owner", "=", owner);
    return (await query.execute()).map(view);
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
      if (typeof change.paused !== "boolean") throw new WebhookInputError("paused", "must be true or false");
      set.paused = change.paused ? 1 : 0;
    }
    await this.db.updateTable("twinspec_webhook_endpoints").set(set).where("endpoint_id", "=", endpointId).execute();
    return this.get(endpointId);
  }

  async delete(endpointId: string): Promise<boolean> {
    const done = await this.db
      .deleteFrom("twinspec_webhook_endpoints")
      .where("endpoint_id", "=", endpointId)
      .executeTakeFirst();
    await this.db.deleteFrom("twinspec_webhook_attempts").where("endpoint_id", "=", endpointId).execute();
    return Number(done.numDeletedRows) > 0;
  }

  /** A new secret, returned this once; the previous one keeps signing for `overlapMs` (default 24 h). */
  async rotate(endpointId: string, overlapMs = 24 * 3600_000): Promise<{ secret: string } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const query = trx
        .selectFrom("twinspec_webhook_endpoints")
        .select("secrets")
        .where("endpoint_id", "=", endpointId);
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
      return { secret };
    });
  }

  /** The secrets that sign now, newest first. */
  signing(sealed: string, now = Date.now()): string[] {
    return this.box
      .open(sealed)
      .filter((s) => s.until === undefined || s.until > now)
      .map((s) => s.secret);
  }

  /** Delivers again every event after `eventId` (the endpoint's cursor goes back to it). */
  async redeliverSince(endpointId: string, eventId: string): Promise<boolean> {
    if (!/^(0|[1-9]\d{0,15})$/.test(eventId))
      throw new WebhookInputError("eventId", "must be an event id (a webhook-id)");
    const done = await this.db
      .updateTable("twinspec_webhook_endpoints")
      .set({ position: eventId, attempts: 0, next_at: 0, failing: 0 })
      .where("endpoint_id", "=", endpointId)
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  /** The endpoint's attempts, newest first. */
  async attempts(endpointId: string, limit = 100): Promise<WebhookAttempt[]> {
    const rows = await this.db
      .selectFrom("twinspec_webhook_attempts")
      .selectAll()
      .where("endpoint_id", "=", endpointId)
      .orderBy("at", "desc")
      .orderBy("position", "desc")
      .orderBy("attempt", "desc")
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      eventId: String(r.position),
      attempt: r.attempt,
      at: new Date(Number(r.at)).toISOString(),
      status: r.status,
      latencyMs: r.latency_ms,
      error: r.error,
      outcome: r.outcome as WebhookAttempt["outcome"],
    }));
  }

  private checkUrl(value: unknown): string {
    if (typeof value !== "string" || value.length === 0 || value.length > MAX_URL)
      throw new WebhookInputError("url", `must be a URL of 1 to ${MAX_URL} characters`);
    const refusal = urlRefusal(value, this.policy);
    if (refusal) throw new WebhookInputError("url", refusal);
    return value;
  }

  private checkEvents(value: unknown): string[] {
    if (!Array.isArray(value) || value.length === 0 || value.length > this.eventTypes.length)
      throw new WebhookInputError("events", `must list event types, among: ${this.eventTypes.join(", ")}`);
    const unknown = value.find((v) => typeof v !== "string" || !this.eventTypes.includes(v));
    if (unknown !== undefined)
      throw new WebhookInputError(
        "events",
        `${JSON.stringify(unknown)} is not an event type (${this.eventTypes.join(", ")})`,
      );
    return [...new Set(value as string[])];
  }
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
