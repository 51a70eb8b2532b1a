// GraphQL Yoga 5 (its defaults: parse/validate cache, masked errors) over the in-memory bench data.
import { createServer } from "node:http";
import { createSchema, createYoga } from "graphql-yoga";
import { announce, resolvers, typeDefs } from "./graphql-peer.js";

const yoga = createYoga({
  schema: createSchema({ typeDefs, resolvers }),
  graphiql: false,
  landingPage: false,
  logging: false,
});
const server = createServer(yoga);
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  announce(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
