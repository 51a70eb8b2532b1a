// Baseline for bench:rest: bare Koa + @koa/router answering a constant JSON body, nothing else.
import Router from "@koa/router";
import Koa from "koa";

const body = {
  customerId: "cus_bench",
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};
const app = new Koa();
const router = new Router();
router.get("/customers/:customerId", (ctx) => {
  ctx.body = body;
});
app.use(router.routes());
const server = app.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(JSON.stringify({ url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` }));
});
