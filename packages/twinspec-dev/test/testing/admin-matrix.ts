// Run by auth-matrices.test.ts in a child mocha: both authorization matrices against an application (TWINSPEC_ROOT:
// the fixture with createAuthor admin-only on both transports); with GRANT_ALL set, behind a middleware that turns
// every token into an admin's, a server that refuses nobody.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Middleware } from "koa";
import { describeGraphqlAuthMatrix, describeRestAuthMatrix, token } from "twinspec-dev/testing";

const { definition } = await import(pathToFileURL(join(process.env.TWINSPEC_ROOT!, "generated/wiring.js")).href);
const admin = await token("ops", "admin");

const grantAll: Middleware = async (ctx, next) => {
  if (ctx.headers.authorization) ctx.headers.authorization = `Bearer ${admin}`;
  return next();
};

const server = process.env.GRANT_ALL ? { middleware: [grantAll] } : {};
describeRestAuthMatrix(definition, { server });
describeGraphqlAuthMatrix(definition, { server });
