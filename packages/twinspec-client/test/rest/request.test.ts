// From arguments to a request, and from a response to an outcome.
import assert from "node:assert/strict";
import { bodyOf, outcomeOf, urlOf } from "../../src/rest/request.js";
import type { OperationSpec } from "../../src/rest/types.js";

const spec = (over: Partial<OperationSpec> = {}): OperationSpec => ({
  method: "GET",
  path: "/a/{id}/b",
  retry: "safe",
  ...over,
});

describe("request: URL, body, outcome", () => {
  it("fills path parameters percent-encoded and repeats array query parameters", () => {
    assert.equal(
      urlOf("http://h/api/", spec(), { path: { id: "x/y z" }, query: { tag: ["a", "b"], n: 2, gone: undefined } }),
      "http://h/api/a/x%2Fy%20z/b?tag=a&tag=b&n=2",
    );
  });

  it("refuses a missing path parameter, naming it", () => {
    assert.throws(() => urlOf("http://h", spec(), {}), /path parameter "id" is missing/);
  });

  it("encodes JSON for any JSON media type, with that Content-Type", () => {
    const headers = new Headers();
    assert.equal(bodyOf(spec({ body: "application/merge-patch+json" }), { a: 1 }, headers), '{"a":1}');
    assert.equal(headers.get("content-type"), "application/merge-patch+json");
  });

  it("makes forms and multipart bodies from objects; passes a Blob through with its type", async () => {
    const form = bodyOf(spec({ body: "application/x-www-form-urlencoded" }), { a: "1", b: ["x", "y"] }, new Headers());
    assert.ok(form instanceof URLSearchParams);
    assert.equal(form.toString(), "a=1&b=x&b=y");
    const parts = bodyOf(
      spec({ body: "multipart/form-data" }),
      { file: new Blob(["png"], { type: "image/png" }), meta: { k: 1 } },
      new Headers(),
    ) as FormData;
    assert.equal((parts.get("file") as Blob).type, "image/png");
    assert.equal(await (parts.get("meta") as Blob).text(), '{"k":1}');
    const headers = new Headers();
    bodyOf(spec({ body: "image/png" }), new Blob(["x"], { type: "image/png" }), headers);
    assert.equal(headers.get("content-type"), "image/png");
  });

  it("reads JSON, text and binary bodies, nothing for 204, and only the declared headers by their spelling", async () => {
    const json = await outcomeOf(
      new Response('{"x":1}', {
        status: 200,
        headers: { "content-type": "application/problem+json", etag: '"1"', other: "o" },
      }),
      { method: "GET", headers: ["ETag"] },
    );
    assert.deepEqual([json.status, json.body, json.headers], [200, { x: 1 }, { ETag: '"1"' }]);
    const text = await outcomeOf(new Response("hi", { headers: { "content-type": "text/plain" } }), { method: "GET" });
    assert.equal(text.body, "hi");
    const binary = await outcomeOf(new Response(new Uint8Array([1, 2]), { headers: { "content-type": "image/png" } }), {
      method: "GET",
    });
    assert.ok(binary.body instanceof Blob);
    const none = await outcomeOf(new Response(null, { status: 204 }), { method: "DELETE" });
    assert.equal(none.body, undefined);
  });
});
