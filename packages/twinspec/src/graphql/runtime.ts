// The GraphQL side of the app, built once: schema, persisted documents, operation preparation (cache + limits),
// execution, the live subscription streams, and a context per operation. Every transport (HTTP, WebSocket, SSE)
// uses this one object.
import type { ExecutionArgs, ExecutionResult, GraphQLError, GraphQLSchema } from "graphql";
import { withoutSuggestions } from "./errors.js";
import type { Logger } from "pino";
import type { AppDefinition } from "../definition.js";
import type { GraphqlCharge } from "./rate-limit.js";
import type { EventBus } from "../store/events.js";
import type { Tracing } from "../telemetry/types.js";
import { createContext, type Caller, type GraphqlContext } from "./context.js";
import { createExecute, traced } from "./execute.js";
import { createPreparer, type OperationOptions } from "./operation.js";
import { createPersistedDocuments } from "./persisted.js";
import { buildSchema } from "./schema.js";
import { LiveStreams } from "./streams.js";
import { subscribeWithIds } from "./subscribe.js";

/**
 * `schema` replaces the default one (e.g. buildSchema() wrapped by the auth layer's directive resolvers); with
 * `tracing` every operation gets a span; with `persistedOnly` only the documents of the client preset's manifest run;
 * `charge` spends an operation's cost from its caller's rate limit (none: no limits).
 */
export function createGraphqlRuntime<Services>(
  definition: Pick<AppDefinition<Services>, "resolvers" | "createLoaders" | "persistedDocuments" | "contract">,
  services: Services,
  bus: EventBus,
  options: OperationOptions & {
    log?: Logger;
    schema?: GraphQLSchema;
    tracing?: Tracing;
    persistedOnly?: boolean;
    charge?: GraphqlCharge;
  } = {},
) {
  const schema = options.schema ?? buildSchema(definition);
  const streams = new LiveStreams();
  const execute = createExecute(schema, options.tracing);
  const hidden = options.introspection === false ? withoutSuggestions : undefined;
  return {
    schema,
    streams,
    log: options.log,
    persisted: createPersistedDocuments({ documents: definition.persistedDocuments, only: options.persistedOnly }),
    prepare: createPreparer(schema, options),
    charge: options.charge ?? (() => undefined),
    execute: hidden ? scrubbed(execute, hidden) : execute,
    /** an executed result as JSON (compiled for the operation's selections where it can be: see execute.ts) */
    serialize: execute.serialize,
    /** graphql-js's subscribe, each payload with its event id (subscribe.ts) */
    subscribe: hidden
      ? scrubbed(traced(options.tracing, subscribeWithIds), hidden)
      : traced(options.tracing, subscribeWithIds),
    context: (caller: Caller): GraphqlContext =>
      createContext({ services, bus, streams, createLoaders: definition.createLoaders }, caller),
  };
}

export type GraphqlRuntime = ReturnType<typeof createGraphqlRuntime>;

/**
 * `run` whose request errors (no `data`: the variables did not coerce, where graphql-js suggests enum values) pass
 * through `scrub`.
 */
function scrubbed<R>(
  run: (args: ExecutionArgs) => R,
  scrub: (error: GraphQLError) => GraphQLError,
): (args: ExecutionArgs) => R {
  const clean = (result: unknown) => {
    const r = result as ExecutionResult;
    return r && Array.isArray(r.errors) && !("data" in r) ? { ...r, errors: r.errors.map(scrub) } : result;
  };
  return (args) => {
    const result = run(args);
    return (result instanceof Promise ? result.then(clean) : clean(result)) as R;
  };
}
