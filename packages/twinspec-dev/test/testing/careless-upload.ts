// Run by abuse-walk.test.ts in a child mocha: the abuse walk against an application (TWINSPEC_ROOT: the fixture with an
// upload added) whose own middleware reads uploads as a careless user would — busboy with no 'error' listener, on the
// parser or on the file streams — so a body cut off mid-part throws where nothing catches it.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Busboy, type BusboyHeaders } from "@fastify/busboy";
import type { Middleware } from "koa";
import { describeAbuseWalk } from "twinspec-dev/testing";

const { definition } = await import(pathToFileURL(join(process.env.TWINSPEC_ROOT!, "generated/wiring.js")).href);

const careless: Middleware = async (ctx, next) => {
  if (!ctx.is("multipart/form-data")) return next();
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve) => {
    const parser = Busboy({ headers: ctx.req.headers as BusboyHeaders });
    parser.on("file", (_name, stream) => stream.on("data", (chunk: Buffer) => chunks.push(chunk)));
    parser.on("finish", resolve);
    ctx.req.pipe(parser);
  });
  ctx.status = 204;
};

describeAbuseWalk(definition, { server: { middleware: [careless] }, wsFlood: false });
