// Per-operation DataLoaders for GraphQL resolvers (ctx.loaders): one query per relationship per tick, whatever the
// number of parents. `npm run generate` wrote this file; add a loader where a field reads a relation.
import type { Services } from "../../generated/wiring.js";

export function createLoaders(services: Services) {
  void services;
  return {};
}
