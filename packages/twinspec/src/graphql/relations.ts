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
  memo<T>(key: string, make: () => T): T;
}

/**
 * The loader of `relation` ("Book.reviews") for this request and these selected fields (selectedFields(info): the
 * same array for every parent of one document's field); a parent with nothing under it loads [].
 */
export function relationLoader<T>(context: OperationMemo, relation: string, fields: readonly string[], batch: Batch<T>): DataLoader<string, T[]> {
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
