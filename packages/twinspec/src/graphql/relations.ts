// The per-request batch loaders of relations (generated/wiring.ts relationResolvers): one DataLoader per request,
// relation and set of selected fields, so every parent of one document's field is answered by one batched call
// (listByParents) per tick, however many parents there are.
import DataLoader from "dataloader";

type Batch<T> = (parentIds: readonly string[], fields: readonly string[]) => Promise<Map<string, T[]>>;

// Keyed by the request's context object: the loaders live as long as the request does.
const perRequest = new WeakMap<object, Map<string, Map<readonly string[], DataLoader<string, unknown[]>>>>();

/**
 * The loader of `relation` ("Order.notes") for this request and these selected fields (selectedFields(info): the
 * same array for every parent of one document's field); a parent with nothing under it loads [].
 */
export function relationLoader<T>(context: object, relation: string, fields: readonly string[], batch: Batch<T>): DataLoader<string, T[]> {
  let relations = perRequest.get(context);
  if (!relations) perRequest.set(context, (relations = new Map()));
  let byFields = relations.get(relation);
  if (!byFields) relations.set(relation, (byFields = new Map()));
  let loader = byFields.get(fields) as DataLoader<string, T[]> | undefined;
  if (!loader) {
    loader = new DataLoader<string, T[]>(async (ids) => {
      const found = await batch(ids, fields);
      return ids.map((id) => found.get(id) ?? []);
    });
    byFields.set(fields, loader);
  }
  return loader;
}
