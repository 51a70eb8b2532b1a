// The one composition root: transport middleware, the generated REST wiring, GraphQL, over one domain.
// No listen() here, so tests and main.ts mount the same app.
import Router from "@koa/router";
import Koa from "koa";
import type { Logger } from "pino";
import { mountRest, operationSpecs } from "../generated/rest.js";
import { createServices, type Services } from "./domain/services.js";
import { graphqlHttp } from "./graphql/http.js";
import { buildSchema } from "./graphql/schema.js";
import { conditionalGet } from "./http/conditional.js";
import { mountDocs } from "./http/docs.js";
import { problemErrors } from "./http/errors.js";
import { notFound } from "./http/not-found.js";
import { requestId } from "./http/request-id.js";
import { restHandlers } from "./rest/index.js";
import type { Store } from "./store/database.js";
import { InProcessBus, type EventBus } from "./store/events.js";
import type { QueueOptions } from "./store/job-queue.js";

export interface AppDeps {
  store: Store;
  logger: Logger;
  /** defaults to an in-process bus (one instance) */
  bus?: EventBus;
  bodyLimit?: number;
  jobs?: QueueOptions;
}

export interface App {
  koa: Koa;
  services: Services;
  /** starts background work (the job queue) */
  start(): void;
  /** stops background work; the caller closes the store afterwards */
  close(): Promise<void>;
}

export function buildApp({ store, logger, bus = new InProcessBus(), bodyLimit, jobs }: AppDeps): App {
  const services = createServices(store, bus, logger, jobs);
  const koa = new Koa();
  koa.proxy = false;
  // Errors are answered as problems by problemErrors; Koa's own printer would only duplicate them.
  koa.silent = true;

  const router = new Router({ exclusive: "specificity" });
  router.get("/healthz", (ctx) => {
    ctx.body = { status: "ok" };
  });
  router.get("/readyz", async (ctx) => {
    await store.db.selectFrom("customers").select("customer_id").limit(1).execute();
    ctx.body = { status: "ready", database: store.dialect };
  });
  router.all("/graphql", graphqlHttp(buildSchema(), services));
  mountDocs(router);
  mountRest(router, restHandlers(services), { bodyLimit });

  const entryPoints = [...new Set(operationSpecs.map((op) => op.path))].concat("/graphql");
  koa.use(requestId(logger));
  koa.use(problemErrors());
  koa.use(notFound(entryPoints));
  koa.use(conditionalGet());
  koa.use(router.routes());
  return {
    koa,
    services,
    start: () => services.queue.start(),
    close: async () => {
      await services.queue.stop();
      await bus.close();
    },
  };
}
