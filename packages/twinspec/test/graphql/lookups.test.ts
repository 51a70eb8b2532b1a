// lookups.ts: the per-request loader of single-object relations batches every id of a tick into one fetch, answers
// a missing instance as NOT_FOUND (loadRequired) or null (loadOptional), and serves primed instances without a fetch.
import assert from "node:assert/strict";
import { loadOptional, loadRequired, lookupLoader, primeLookup } from "../../src/graphql/lookups.js";
import { NotFoundError } from "../../src/domain/errors.js";
import { createContext } from "../../src/graphql/context.js";
import type { OperationMemo } from "../../src/graphql/relations.js";

/** A fresh operation's context: what keeps its loaders. */
const operation = (): OperationMemo =>
  createContext({ services: {}, bus: undefined as never, streams: undefined as never, createLoaders: () => ({}) }, {});

interface Item {
  id: string;
}

function counting(live: string[]) {
  const calls: (readonly string[])[] = [];
  const fetch = async (ids: readonly string[]): Promise<Item[]> => {
    calls.push(ids);
    return ids.filter((id) => live.includes(id)).map((id) => ({ id }));
  };
  return { calls, loader: (context: OperationMemo) => lookupLoader(context, "items", fetch, (item) => item.id) };
}

describe("lookup loaders (single-object relations)", () => {
  it("one fetch for every id asked in one tick, per request; a missing one is NOT_FOUND or null", async () => {
    const { calls, loader } = counting(["a", "b"]);
    const context = operation();
    const [a, b, none, missing] = await Promise.allSettled([
      loadRequired(loader(context), "item", "a"),
      loadOptional(loader(context), "b"),
      loadOptional(loader(context), "gone"),
      loadRequired(loader(context), "item", "gone"),
    ]);
    assert.deepEqual(calls, [["a", "b", "gone"]]);
    assert.deepEqual(
      [a, b, none].map((r) => (r.status === "fulfilled" ? r.value : r.reason)),
      [{ id: "a" }, { id: "b" }, null],
    );
    assert.ok(missing.status === "rejected" && missing.reason instanceof NotFoundError);
    assert.equal(missing.reason.message, "item gone does not exist");
    assert.equal(await loadOptional(loader(context), null), null, "an object naming nothing: null, no fetch");
    await loadRequired(loader(operation()), "item", "a");
    assert.equal(calls.length, 2, "another request, another loader");
  });

  it("primed instances cost no fetch, whether primed before or after the loader is first asked for", async () => {
    const { calls, loader } = counting(["a", "b"]);
    const context = operation();
    primeLookup(context, "items", "a", { id: "a" });
    assert.deepEqual(await loadRequired(loader(context), "item", "a"), { id: "a" });
    primeLookup(context, "items", "b", { id: "b" });
    assert.deepEqual(await loadRequired(loader(context), "item", "b"), { id: "b" });
    assert.deepEqual(calls, []);
  });
});
