// A customer's avatar over REST (PUT/GET/DELETE /customers/{customerId}/avatar), uploaded as multipart/form-data by
// Node's own fetch (undici's FormData and Blob, a client we did not write): the bytes come back as sent, with their
// media type; bytes that are not the image they claim to be answer 422, what the spec refuses 400/413, another
// customer's avatar 403; deleting the avatar or the customer leaves nothing behind.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ADMIN_TOKEN, token } from "../support/auth.js";
import { newCustomer } from "../support/fixtures.js";
import { call, startServer, type TestServer } from "../support/server.js";

const image = (name: string) => readFileSync(new URL(`../fixtures/avatars/${name}`, import.meta.url));
const PNG = image("pixel.png");
const JPEG = image("pixel.jpg");
const WEBP = image("pixel.webp");
/** The spec's limit of the image part (AvatarUpload.image maxLength). */
const MAX = 512 * 1024;

/** A form with an `image` part of these bytes and media type (or with the given parts only). */
const form = (bytes: Buffer, type: string, filename = "me") => {
  const data = new FormData();
  data.append("image", new Blob([bytes], { type }), filename);
  return data;
};

describe("REST customer avatars", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  const url = (customerId: string) => `${s.url}/customers/${customerId}/avatar`;
  const put = (customerId: string, body: FormData, headers: Record<string, string> = {}) =>
    call(url(customerId), { method: "PUT", body, headers });
  /** GET with the bytes as they came. */
  const get = async (customerId: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url(customerId), { headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers } });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it("PUT a PNG: 201 with Location, ETag and what was stored; GET answers the same bytes as image/png", async () => {
    const { customerId } = await newCustomer(s.url);
    const res = await put(customerId, form(PNG, "image/png", "me.png"));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers.get("location"), `/customers/${customerId}/avatar`);
    assert.equal(res.headers.get("etag"), '"v1"');
    assert.deepEqual(
      { ...res.json, updatedAt: undefined },
      { customerId, mediaType: "image/png", size: PNG.length, updatedAt: undefined },
    );
    const got = await get(customerId);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get("content-type"), "image/png");
    assert.ok(got.bytes.equals(PNG), "the bytes uploaded");
    assert.equal(got.headers.get("etag"), '"v1"');
    assert.equal(got.headers.get("last-modified"), new Date(res.json.updatedAt).toUTCString());
  });

  it("PUT replaces it (200, a new ETag) with a JPEG, then a WebP, each read back as sent; the same image again changes nothing", async () => {
    const { customerId } = await newCustomer(s.url);
    assert.equal((await put(customerId, form(PNG, "image/png"))).status, 201);
    let version = 1;
    for (const [bytes, type] of [
      [JPEG, "image/jpeg"],
      [WEBP, "image/webp"],
    ] as const) {
      const res = await put(customerId, form(bytes, type));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        [res.json.mediaType, res.json.size, res.headers.get("etag")],
        [type, bytes.length, `"v${++version}"`],
      );
      const got = await get(customerId);
      assert.deepEqual(
        [got.status, got.headers.get("content-type"), got.headers.get("etag")],
        [200, type, `"v${version}"`],
      );
      assert.ok(got.bytes.equals(bytes), type);
    }
    const again = await put(customerId, form(WEBP, "image/webp"));
    assert.deepEqual([again.status, again.headers.get("etag")], [200, `"v${version}"`]);
  });

  it("GET with If-None-Match of the current ETag → 304 without a body; HEAD → the headers only", async () => {
    const { customerId } = await newCustomer(s.url);
    await put(customerId, form(JPEG, "image/jpeg"));
    const same = await get(customerId, { "If-None-Match": '"v1"' });
    assert.deepEqual([same.status, same.bytes.length, same.headers.get("etag")], [304, 0, '"v1"']);
    const head = await fetch(url(customerId), { method: "HEAD", headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    assert.deepEqual(
      [
        head.status,
        head.headers.get("content-type"),
        Number(head.headers.get("content-length")),
        (await head.arrayBuffer()).byteLength,
      ],
      [200, "image/jpeg", JPEG.length, 0],
    );
  });

  it("bytes that are not the image their part declares → 422 problem+json saying what to send; nothing is stored", async () => {
    const { customerId } = await newCustomer(s.url);
    const cases: [Buffer, string, RegExp][] = [
      [JPEG, "image/png", /is declared image\/png but its bytes are a JPEG image: declare it as image\/jpeg/],
      [PNG, "image/webp", /is declared image\/webp but its bytes are a PNG image: declare it as image\/png/],
      [
        Buffer.from("GIF89a not one of ours"),
        "image/png",
        /is declared image\/png but its bytes are not a PNG, JPEG or WebP image/,
      ],
      [PNG.subarray(0, 7), "image/png", /is declared image\/png but its bytes are not a PNG, JPEG or WebP image/],
    ];
    for (const [bytes, type, message] of cases) {
      const res = await put(customerId, form(bytes, type));
      assert.deepEqual([res.status, res.headers.get("content-type")], [422, "application/problem+json"], res.text);
      assert.deepEqual(
        res.json.errors.map((e: { in: string; pointer: string }) => `${e.in} ${e.pointer}`),
        ["body /image"],
      );
      assert.match(res.json.errors[0].message, message);
    }
    assert.equal((await get(customerId)).status, 404, "no avatar was stored");
  });

  it("what the spec refuses → 400 naming the part: no image part, a media type that is not an allowed image, an empty file, another part", async () => {
    const { customerId } = await newCustomer(s.url);
    const extra = form(PNG, "image/png");
    extra.append("caption", "me");
    const cases: [FormData, string[]][] = [
      [new FormData(), ["body /image is required"]],
      [
        form(Buffer.from("hello"), "text/plain"),
        ["body /image has media type text/plain; allowed: image/png, image/jpeg, image/webp"],
      ],
      [form(PNG, "image/gif"), ["body /image has media type image/gif; allowed: image/png, image/jpeg, image/webp"]],
      [form(Buffer.alloc(0), "image/png"), ["body /image must NOT have fewer than 1 characters"]],
      [extra, ["body /caption is not a known field"]],
    ];
    for (const [body, expected] of cases) {
      const res = await put(customerId, body);
      assert.deepEqual([res.status, res.headers.get("content-type")], [400, "application/problem+json"], res.text);
      assert.deepEqual(
        res.json.errors.map(
          (e: { in: string; pointer: string; message: string }) => `${e.in} ${e.pointer} ${e.message}`,
        ),
        expected,
      );
    }
  });

  it("an image of 512 KiB is taken; a byte more → 413 naming the limit, nothing stored", async () => {
    const { customerId } = await newCustomer(s.url);
    const largest = Buffer.concat([PNG, Buffer.alloc(MAX - PNG.length)]);
    const ok = await put(customerId, form(largest, "image/png"));
    assert.deepEqual([ok.status, ok.json.size], [201, MAX], ok.text);
    const res = await put(customerId, form(Buffer.concat([largest, Buffer.from([0])]), "image/png"));
    assert.deepEqual([res.status, res.headers.get("content-type")], [413, "application/problem+json"], res.text);
    assert.equal(res.json.detail, `The file in part "image" is larger than its limit of ${MAX} bytes.`);
    assert.equal((await get(customerId)).bytes.length, MAX, "the first one stays");
  });

  it("a customer's token acts on its own avatar only: another customer's answers 403, for every method", async () => {
    const me = await newCustomer(s.url);
    const other = await newCustomer(s.url);
    const mine = { authorization: `Bearer ${await token(me.customerId, "customers:read customers:write")}` };
    assert.equal((await put(me.customerId, form(PNG, "image/png"), mine)).status, 201);
    assert.equal((await put(other.customerId, form(PNG, "image/png"))).status, 201);
    assert.equal((await get(me.customerId, mine)).status, 200);
    for (const [method, body] of [["GET"], ["PUT", form(JPEG, "image/jpeg")], ["DELETE"]] as const) {
      const res = await call(url(other.customerId), { method, body, headers: mine });
      assert.equal(res.status, 403, `${method}: ${res.text}`);
    }
    assert.ok((await get(other.customerId)).bytes.equals(PNG), "the other customer's avatar is untouched");
    assert.equal((await call(url(me.customerId), { method: "DELETE", headers: mine })).status, 204);
  });

  it("DELETE → 204, then GET and DELETE → 404; a new upload is 201 again, with an ETag never given before", async () => {
    const { customerId } = await newCustomer(s.url);
    assert.equal((await put(customerId, form(PNG, "image/png"))).headers.get("etag"), '"v1"');
    assert.equal((await call(url(customerId), { method: "DELETE" })).status, 204);
    assert.equal((await get(customerId)).status, 404);
    const again = await call(url(customerId), { method: "DELETE" });
    assert.deepEqual([again.status, again.headers.get("content-type")], [404, "application/problem+json"]);
    const reupload = await put(customerId, form(JPEG, "image/jpeg"));
    assert.deepEqual([reupload.status, reupload.headers.get("etag")], [201, '"v3"']);
    assert.equal((await call(`${s.url}/customers/${customerId}`)).status, 200, "the customer stays");
  });

  it("deleting the customer deletes its avatar (the row goes); its avatar URL then answers 410", async () => {
    const { customerId } = await newCustomer(s.url);
    await put(customerId, form(PNG, "image/png"));
    assert.equal((await call(`${s.url}/customers/${customerId}`, { method: "DELETE" })).status, 204);
    const rows = await s.store.db
      .selectFrom("customer_avatars")
      .select("customer_id")
      .where("customer_id", "=", customerId)
      .execute();
    assert.deepEqual(rows, []);
    for (const method of ["GET", "DELETE"]) assert.equal((await call(url(customerId), { method })).status, 410, method);
    assert.equal((await put(customerId, form(PNG, "image/png"))).status, 410);
  });

  it("a merged customer's avatar URL answers 301 to the survivor's, for every method", async () => {
    const from = await newCustomer(s.url);
    const into = await newCustomer(s.url);
    await put(into.customerId, form(WEBP, "image/webp"));
    assert.equal(
      (await call(`${s.url}/customers/${from.customerId}/merge`, { method: "POST", json: { into: into.customerId } }))
        .status,
      200,
    );
    for (const [method, body] of [["GET"], ["PUT", form(PNG, "image/png")], ["DELETE"]] as const) {
      const res = await call(url(from.customerId), { method, body, redirect: "manual" });
      assert.deepEqual(
        [res.status, res.headers.get("location")],
        [301, `/customers/${into.customerId}/avatar`],
        `${method}: ${res.text}`,
      );
    }
    assert.ok((await get(into.customerId)).bytes.equals(WEBP), "the survivor keeps its own avatar");
  });
});
