// A server process for the REST benchmarks. BENCH_MODE=generated mounts BENCH_DIR/rest.ts (the generated wiring)
// on @koa/router as src/app.ts does; BENCH_MODE=hand is a hand-written @koa/router route validating the same input
// by hand, after BENCH_ROUTES-1 other routes (default 1). Arguments `<mode> <dir>` work too.
// Prints {"url", "startMs"}: startMs = time from process start to listening (module loading and mounting included).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import Router from "@koa/router";
import Koa from "koa";

const mode = process.argv[2] ?? process.env.BENCH_MODE;
const dir = process.argv[3] ?? process.env.BENCH_DIR ?? ".";
const koa = new Koa();
const router = new Router({ exclusive: "specificity" });
const item = (id: number) => ({ id, name: `item ${id}` });

if (mode === "generated") {
  const { mountRest } = await import(pathToFileURL(resolve(dir, "rest.ts")).href);
  mountRest(
    router,
    { getTarget: async (req: { params: { id: number } }) => ({ status: 200, body: item(req.params.id) }) },
    { validateResponses: process.env.RESPONSE_VALIDATION === "on" },
  );
} else {
  const problem = (ctx: Koa.Context, detail: string) => {
    ctx.status = 400;
    ctx.type = "application/problem+json";
    ctx.body = { type: "about:blank", title: "Bad Request", status: 400, detail };
  };
  // @koa/router tries its routes one by one: these come before the measured one.
  for (let i = 1; i < Number(process.env.BENCH_ROUTES ?? 1); i++) router.get(`/r${i}/:id/x`, (ctx) => (ctx.body = i));
  router.get("/target/:id", (ctx) => {
    const id = /^-?\d+$/.test(ctx.params.id) ? Number(ctx.params.id) : NaN;
    if (!Number.isInteger(id) || id < 1) return problem(ctx, "id must be an integer ≥ 1");
    const raw = ctx.query.limit;
    if (raw !== undefined) {
      const limit = typeof raw === "string" && /^-?\d+$/.test(raw) ? Number(raw) : NaN;
      if (!(limit >= 1 && limit <= 100)) return problem(ctx, "limit must be an integer in 1..100");
    }
    ctx.body = item(id);
  });
}
koa.use(router.routes());
const handle = koa.callback();
const server = createServer((req, res) => void handle(req, res));
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}`, startMs: Math.round(performance.now()) }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
