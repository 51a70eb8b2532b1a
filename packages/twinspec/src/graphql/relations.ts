// The per-request batch loaders of relations (generated/wiring.ts relationResolvers): one DataLoader per request,
// relation and set of selected fields, so every parent of one document's field is answered by one batched call
// (listByParents) per tick, however many parents there are.
import DataLoader from "dataloader";

type Batch<T> = (parentIds: readonly string[], fields: readonly string[]) => Promise<Map<string, T[]>>;

/**
 * What keeps the loaders: the operation's context (GraphqlContext.memo), so that they live as long as the request does
 * (keyed by the relation, "Type.field", or by the resource tag of a lookup).
 */
export interface OperationMemo {
  /**
   * What lives as long as this operation, made by `make` the first time `key` is asked for.
   *
   * @param key - names the value within this operation
   * @param make - makes it, once
   */
  memo<T>(key: string, make: () => T): T;
}

/**
 * The loader of `relation` ("Book.reviews") for this request and these selected fields (selectedFields(info): the
 * same array for every parent of one document's field); a parent with nothing under it loads [].
 *
 * @param context - the resolver's context (GraphqlContext), which keeps the loader for the request
 * @param relation - the relation, "Type.field" ("Book.reviews")
 * @param fields - the fields selected under it (`selectedFields(info)`), handed to `batch`
 * @param batch - reads the children of many parents in one query (`listByParents(ids, fields)`): each parent's id → its children
 */
export function relationLoader<T>(
  context: OperationMemo,
  relation: string,
  fields: readonly string[],
  batch: Batch<T>,
): DataLoader<string, T[]> {
  const byFields = context.memo(relation, () => new Map<readonly string[], DataLoader<string, T[]>>());
  let loader = byFields.get(fields);
  if (!loader) {
    loader = new DataLoader<string, T[]>(async (ids) => {
      const found = await batch(ids, fields);
      return ids.map((id) => found.get(id) ?? []);
    });
    byFields.set(fields, loader);
  }
  return loader;
}
