// The avatar rules of the domain (src/domain/avatars.ts), on a real database (this file runs in both passes of
// npm test): an upload's bytes must be the image type it declares, whichever transport hands it over; concurrent
// uploads for one customer each get their own version; a customer deleted while uploads race leaves no avatar.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { Services } from "../../generated/wiring.js";
import { checkImage, sniffImage } from "../../src/domain/avatars.js";
import { GoneError, UnprocessableError } from "../../packages/twinspec/src/domain/errors.js";
import { openStore, type Store } from "../../packages/twinspec/src/store/database.js";
import type { JobQueue } from "../../packages/twinspec/src/store/job-queue.js";
import { freshDatabase, testDatabaseKind, type TestDatabase } from "../support/database.js";
import { domainOn } from "../support/services.js";

const image = (name: string) => readFileSync(new URL(`../fixtures/avatars/${name}`, import.meta.url));
const PNG = image("pixel.png");
const JPEG = image("pixel.jpg");
const WEBP = image("pixel.webp");

describe("avatar images: what the bytes are", () => {
  const cases: [string, Buffer, string | undefined][] = [
    ["a PNG", PNG, "image/png"],
    ["a JPEG", JPEG, "image/jpeg"],
    [
      "a WebP (any RIFF size)",
      Buffer.concat([Buffer.from("RIFF"), Buffer.from([1, 2, 3, 4]), Buffer.from("WEBPVP8 ")]),
      "image/webp",
    ],
    [
      "a RIFF file that is not WebP (WAVE)",
      Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WAVEfmt ")]),
      undefined,
    ],
    ["a PNG signature cut short", PNG.subarray(0, 7), undefined],
    ["a GIF", Buffer.from("GIF89a"), undefined],
    ["nothing", Buffer.alloc(0), undefined],
  ];
  for (const [name, bytes, type] of cases)
    it(`${name} → ${type ?? "no image type"}`, () => assert.equal(sniffImage(bytes), type));

  it("refuses bytes of another type than declared with an UnprocessableError naming the part and what to send", () => {
    assert.equal(checkImage({ mediaType: "image/webp", content: WEBP }), "image/webp");
    assert.throws(
      () => checkImage({ mediaType: "image/jpeg", content: PNG }),
      (e: unknown) =>
        e instanceof UnprocessableError &&
        e.errors[0].pointer === "/image" &&
        /bytes are a PNG image: declare it as image\/png \(the part's Content-Type\), or send a file that is image\/jpeg$/.test(
          e.errors[0].message,
        ),
    );
    assert.throws(
      () => checkImage({ mediaType: "image/png", content: Buffer.from("<svg/>") }, "/avatar"),
      (e: unknown) => e instanceof UnprocessableError && e.errors[0].pointer === "/avatar",
    );
  });
});

describe(`avatars under concurrency on ${testDatabaseKind()}`, function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let store: Store;
  let services: Services;
  let queue: JobQueue;
  beforeEach(async () => {
    database = await freshDatabase();
    store = await openStore(database.url);
    ({ services, queue } = domainOn(store));
  });
  afterEach(async () => {
    await queue.stop();
    await store.close();
    await database.drop();
  });
  const customer = () => services.customers.create({ firstName: "A", lastName: "B", email: "a@example.com" });
  /** A distinct PNG for each n (the signature, then n). */
  const png = (n: number) => Buffer.concat([PNG, Buffer.from(`#${n}`)]);

  it("10 different uploads at once: one creates, each gets its own version, the last one stored is what GET reads", async () => {
    const { customerId } = await customer();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        services.customers.avatars.put(customerId, { mediaType: "image/png", content: png(n) }),
      ),
    );
    assert.equal(results.filter((r) => r.created).length, 1);
    assert.deepEqual(
      results.map((r) => r.avatar.version).sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    const last = results.find((r) => r.avatar.version === 10)!.avatar;
    const stored = await services.customers.avatars.get(customerId);
    assert.deepEqual([stored.version, stored.content.equals(last.content)], [10, true]);
  });

  it("a customer deleted while uploads race: every upload either lands before the delete or answers gone; no avatar is left", async () => {
    const { customerId } = await customer();
    const uploads = Array.from({ length: 6 }, (_, n) =>
      services.customers.avatars.put(customerId, { mediaType: "image/png", content: png(n) }),
    );
    const results = await Promise.allSettled([...uploads, services.customers.delete(customerId)]);
    for (const r of results) if (r.status === "rejected") assert.ok(r.reason instanceof GoneError, String(r.reason));
    assert.equal(results.at(-1)!.status, "fulfilled");
    const rows = await store.db
      .selectFrom("customer_avatars")
      .select("customer_id")
      .where("customer_id", "=", customerId)
      .execute();
    assert.deepEqual(rows, []);
  });
});
