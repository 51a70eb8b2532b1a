// Apollo Server 5 (standalone HTTP server, its defaults: document cache) over the in-memory bench data.
import { ApolloServer } from "@apollo/server";
import { startStandaloneServer } from "@apollo/server/standalone";
import { announce, resolvers, typeDefs } from "./graphql-peer.js";

const server = new ApolloServer({ typeDefs, resolvers });
const { url } = await startStandaloneServer(server, {
  listen: { port: Number(process.env.PORT ?? 0), host: "127.0.0.1" },
});
announce(url.replace(/\/$/, ""));
process.on("SIGTERM", () => void server.stop().then(() => process.exit(0)));
