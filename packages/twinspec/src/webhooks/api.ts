// The webhook endpoints as an API: the REST handlers and GraphQL resolvers of Twinspec's part "webhook-endpoints"
// (parts/webhook-endpoints/), thin over the endpoint registry (endpoints.ts), so both transports answer alike.
// Owned like any resource: a token acts on the endpoints its subject registered (another's: 403), registers them for
// its subject's events, and for an event type only with the scopes its subscription field needs (else 422 naming the
// type); an admin token acts on every endpoint, and registers for every event. Missing endpoints are 404, deleted
// ones 410.
import type { IResolvers } from "@graphql-tools/utils";
import { isAdmin, missingScopes, type Principal } from "../auth/principal.js";
import type { ContractFacts } from "../definition.js";
import { GoneError, InvalidInputError, NotFoundError, UnprocessableError } from "../domain/errors.js";
import { pageLink } from "../rest/pagination.js";
import type { HandlerResponse } from "../runtime/index.js";
import { refusalOf } from "../runtime/problems.js";
import type { WebhookEndpoint } from "./endpoints.js";
import type { Webhooks } from "./setup.js";

type Declared = NonNullable<ContractFacts["webhooks"]>;
type Request = {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body?: unknown;
  principal?: Principal | null;
};
type Handler = (req: Request) => Promise<HandlerResponse>;
type Input = Record<string, unknown>;

const RESOURCE = "webhook endpoint";
const PATH = "/webhook-endpoints";
const pathOf = (id: string) => `${PATH}/${encodeURIComponent(id)}`;

/** The part's operations and root fields, served over `webhooks` for the webhooks the application declares. */
export function webhookApi(
  webhooks: Webhooks,
  declared: Declared,
): { handlers: Record<string, Handler>; resolvers: IResolvers } {
  const { endpoints, delivery } = webhooks;

  /** The caller: every operation of the part is secured, so a request without a token never gets here. */
  const caller = (principal: Principal | null | undefined): Principal => {
    if (!principal) throw refusalOf("unauthenticated", "this operation needs a bearer token");
    return principal;
  };
  /** Whose endpoints the caller acts on: an admin every one's (null), another token its subject's. */
  const ownerFor = (p: Principal) => (isAdmin(p) ? undefined : p.subject);

  /** The live endpoint the caller may act on. */
  const mine = async (principal: Principal | null | undefined, id: string): Promise<WebhookEndpoint> => {
    const p = caller(principal);
    const found = await endpoints.find(id);
    if (found === undefined) throw new NotFoundError(RESOURCE, id);
    if (found === "deleted") throw new GoneError(RESOURCE, id);
    if (!isAdmin(p) && found.owner !== p.subject)
      throw refusalOf("forbidden", "this webhook endpoint is not the token's subject's; it may not read or change it");
    return found;
  };

  /** The event types asked for, each of which the caller holds the scopes of (its subscription field's @auth). */
  const allowed = (p: Principal, events: unknown, pointer = "/events") => {
    if (!Array.isArray(events)) return;
    const lacking = events
      .map((type, i) => ({ i, type, missing: missingScopes(p, declared[String(type)]?.scopes ?? []) }))
      .filter((e) => e.missing.length > 0);
    if (lacking.length)
      throw new UnprocessableError(
        lacking.map((e) => ({
          pointer: `${pointer}/${e.i}`,
          message: `registering for ${String(e.type)} needs the scope(s) ${e.missing.join(", ")}, which this token lacks`,
        })),
      );
  };

  const create = async (principal: Principal | null | undefined, input: Input) => {
    const p = caller(principal);
    allowed(p, input.events);
    return endpoints.create({ url: input.url, events: input.events, owner: isAdmin(p) ? null : p.subject });
  };

  const update = async (principal: Principal | null | undefined, id: string, input: Input) => {
    await mine(principal, id);
    const change = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
    allowed(caller(principal), change.events);
    const endpoint = await endpoints.update(id, change);
    if (!endpoint) throw new GoneError(RESOURCE, id); // deleted meanwhile
    return endpoint;
  };

  const remove = async (principal: Principal | null | undefined, id: string) => {
    await mine(principal, id);
    if (!(await endpoints.delete(id))) throw new GoneError(RESOURCE, id);
  };

  const rotate = async (principal: Principal | null | undefined, id: string) => {
    await mine(principal, id);
    const rotated = await endpoints.rotate(id);
    if (!rotated) throw new GoneError(RESOURCE, id);
    return { endpointId: id, ...rotated };
  };

  const redeliver = async (principal: Principal | null | undefined, id: string, input: Input) => {
    await mine(principal, id);
    // Strings, as both transports' validators have it (a pattern of digits).
    const eventId = typeof input.eventId === "string" ? input.eventId : undefined;
    const since = typeof input.since === "string" ? input.since : undefined;
    if ((eventId === undefined) === (since === undefined))
      throw new UnprocessableError([
        {
          pointer: eventId === undefined ? "" : "/since",
          message: "give eventId (that event again) or since (every event after it), one of the two",
        },
      ]);
    const done =
      eventId !== undefined
        ? await endpoints.redeliver(id, eventId, (endpoint, type, payload) =>
            delivery.receives(endpoint.owner, type, payload),
          )
        : await endpoints.redeliverSince(id, since!);
    if (!done) throw new GoneError(RESOURCE, id);
    return eventId !== undefined ? { endpointId: id, eventId } : { endpointId: id, since: since! };
  };

  const limitOf = (value: unknown, pointer: string) => {
    const limit = value ?? 20;
    if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 100)
      throw new InvalidInputError([{ pointer, message: "must be an integer from 1 to 100" }]);
    return limit as number;
  };
  const cursorOf = (value: unknown) => (typeof value === "string" ? value : undefined);

  const handlers: Record<string, Handler> = {
    async listWebhookEndpoints(req) {
      const p = caller(req.principal);
      const limit = limitOf(req.query.limit, "/limit");
      const page = await endpoints.page({ owner: ownerFor(p), limit, cursor: cursorOf(req.query.cursor) });
      return { status: 200, body: page, headers: pageLink(PATH, { limit }, page) };
    },
    async createWebhookEndpoint(req) {
      const made = await create(req.principal, req.body as Input);
      return { status: 201, body: made, headers: { Location: pathOf(made.endpoint.endpointId) } };
    },
    async getWebhookEndpoint(req) {
      return { status: 200, body: await mine(req.principal, req.params.endpointId) };
    },
    async updateWebhookEndpoint(req) {
      return { status: 200, body: await update(req.principal, req.params.endpointId, req.body as Input) };
    },
    async deleteWebhookEndpoint(req) {
      await remove(req.principal, req.params.endpointId);
      return { status: 204 };
    },
    async rotateWebhookEndpointSecret(req) {
      return { status: 200, body: await rotate(req.principal, req.params.endpointId) };
    },
    async listWebhookAttempts(req) {
      const id = req.params.endpointId;
      await mine(req.principal, id);
      const limit = limitOf(req.query.limit, "/limit");
      const page = await endpoints.attemptPage(id, { limit, cursor: cursorOf(req.query.cursor) });
      return { status: 200, body: page, headers: pageLink(`${pathOf(id)}/attempts`, { limit }, page) };
    },
    async redeliverWebhookEvents(req) {
      return { status: 202, body: await redeliver(req.principal, req.params.endpointId, req.body as Input) };
    },
  };

  type Context = { principal: Principal | null };
  type Args = Record<string, unknown>;
  const resolvers: IResolvers = {
    Query: {
      webhookEndpoints: async (_: unknown, args: Args, { principal }: Context) => {
        const p = caller(principal);
        const after = typeof args.after === "string" ? args.after : undefined;
        return (await endpoints.page({ owner: ownerFor(p), limit: limitOf(args.first, "/first"), after })).items;
      },
      webhookEndpoint: (_: unknown, args: Args, { principal }: Context) => mine(principal, String(args.endpointId)),
      webhookAttempts: async (_: unknown, args: Args, { principal }: Context) => {
        const id = String(args.endpointId);
        await mine(principal, id);
        return (await endpoints.attemptPage(id, { limit: limitOf(args.first, "/first") })).items;
      },
    },
    Mutation: {
      createWebhookEndpoint: (_: unknown, args: Args, { principal }: Context) => create(principal, args.input as Input),
      updateWebhookEndpoint: (_: unknown, args: Args, { principal }: Context) =>
        update(principal, String(args.endpointId), args.input as Input),
      deleteWebhookEndpoint: async (_: unknown, args: Args, { principal }: Context) => {
        await remove(principal, String(args.endpointId));
        return String(args.endpointId);
      },
      rotateWebhookEndpointSecret: (_: unknown, args: Args, { principal }: Context) =>
        rotate(principal, String(args.endpointId)),
      redeliverWebhookEvents: (_: unknown, args: Args, { principal }: Context) =>
        redeliver(principal, String(args.endpointId), args.input as Input),
    },
  };
  return { handlers, resolvers };
}
