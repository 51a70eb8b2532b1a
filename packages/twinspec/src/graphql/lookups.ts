// The per-request batch loaders of single-object relations (generated/wiring.ts relationResolvers: Review.author,
// paired with the lookup GET /authors/{authorId}): one DataLoader per request and resource read, so every
// object of one document that names an instance is answered by one batched call (getMany) per tick, however many
// objects there are. A root field that has already read instances may prime the loader (primeLookup): a relation
// to them then costs no query at all.
import DataLoader from "dataloader";
import { NotFoundError } from "../domain/errors.js";
import type { OperationMemo } from "./relations.js";

type Fetch<T> = (ids: readonly string[]) => Promise<readonly T[]>;

interface Entry {
  loader?: DataLoader<string, unknown>;
  /** instances primed before the loader was first asked for */
  primed: Map<string, unknown>;
}

/** The operation's entry for `resource`, kept on its context (GraphqlContext.memo): as long-lived as the request. */
const entryOf = (context: OperationMemo, resource: string): Entry =>
  context.memo(resource, (): Entry => ({ primed: new Map() }));

/**
 * The loader of `resource`'s live instances ("authors") for this request: `fetch` reads many in one query (getMany:
 * live ones only, in any order), `idOf` tells which is which; a missing or deleted one loads undefined.
 *
 * @param context - the resolver's context (GraphqlContext), which keeps the loader for the request
 * @param resource - the resource's tag ("authors"): one loader per resource and request, whichever field asks
 * @param fetch - reads the live instances of many ids in one query (`getMany(ids)`), in any order
 * @param idOf - an instance's id
 */
export function lookupLoader<T>(
  context: OperationMemo,
  resource: string,
  fetch: Fetch<T>,
  idOf: (item: T) => string,
): DataLoader<string, T | undefined> {
  const entry = entryOf(context, resource);
  if (!entry.loader) {
    const loader = new DataLoader<string, T | undefined>(async (ids) => {
      const found = new Map((await fetch(ids)).map((item) => [idOf(item), item]));
      return ids.map((id) => found.get(id));
    });
    for (const [id, item] of entry.primed) loader.prime(id, item as T);
    entry.primed.clear();
    entry.loader = loader;
  }
  return entry.loader as DataLoader<string, T | undefined>;
}

/**
 * Tells this request's loader of `resource` an instance it has already read (a live one), so no query reads it again.
 *
 * @param context - the resolver's context (GraphqlContext)
 * @param resource - the resource's tag ("authors")
 * @param id - the instance's id
 * @param item - the instance, whole (every field a lookup reads: see selectsOwnType)
 */
export function primeLookup(context: OperationMemo, resource: string, id: string, item: unknown): void {
  const entry = entryOf(context, resource);
  if (entry.loader) entry.loader.prime(id, item);
  else entry.primed.set(id, item);
}

/**
 * A non-null relation: the instance, or NOT_FOUND (`noun` names it: "author aut_… does not exist").
 *
 * @param loader - the resource's lookup loader (`lookupLoader(…)`)
 * @param noun - what the error message calls it ("author")
 * @param id - the id the parent object names
 */
export async function loadRequired<T>(loader: DataLoader<string, T | undefined>, noun: string, id: string): Promise<T> {
  const item = await loader.load(id);
  if (item === undefined) throw new NotFoundError(noun, id);
  return item;
}

/**
 * A nullable relation: the instance, or null when the object names none or a missing one.
 *
 * @param loader - the resource's lookup loader (`lookupLoader(…)`)
 * @param id - the id the parent object names, if any
 */
export async function loadOptional<T>(
  loader: DataLoader<string, T | undefined>,
  id: string | null | undefined,
): Promise<T | null> {
  return id == null ? null : ((await loader.load(id)) ?? null);
}
