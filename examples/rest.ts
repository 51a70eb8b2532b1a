// The typed REST SDK in use: `npx tsx --conditions=twinspec-source examples/rest.ts [baseUrl] [token]` against a
// running server. It imports the application's client package (client/), as any program calling the API would.
// npm test runs restExample against a real server (test/examples/examples.test.ts).
import { pathToFileURL } from "node:url";
import { createRestClient } from "twinspec-commerce-client";

export async function restExample(baseUrl: string, token?: string) {
  // Retries after 429/503 and lost connections are on: only for safe, idempotent and keyed operations.
  const api = createRestClient({ baseUrl, token });

  // createCustomer declares Idempotency-Key: the client sends one, the same on every retry of this call.
  const created = await api.createCustomer({
    body: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
  });
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${created.body.title}`);
  const { customerId } = created.body;

  const read = await api.getCustomer({ path: { customerId } });
  if (read.status !== 200) throw new Error(`read failed: ${read.status}`);
  const etag = read.headers.ETag ?? "*"; // typed from the spec's response headers

  // A merge patch, guarded by If-Match against lost updates: a stale copy answers 412.
  const patched = await api.patchCustomer({
    path: { customerId },
    headers: { "If-Match": etag },
    body: { lastName: "King" },
  });
  if (patched.status !== 200) throw new Error(`patch failed: ${patched.status}`);
  const stale = await api.patchCustomer({
    path: { customerId },
    headers: { "If-Match": etag },
    body: { lastName: "Byron" },
  });

  // Every customer, page after page, following the Link header.
  const listed: string[] = [];
  for await (const customer of api.paginate("listCustomers", { query: { limit: 10 } }))
    listed.push(customer.customerId);

  await api.deleteCustomer({ path: { customerId } });

  // Every declared status is its own case: the compiler knows 410's body is a Problem and 200's a Customer.
  const after = await api.getCustomer({ path: { customerId } });
  let afterDelete: string;
  switch (after.status) {
    case 200:
      afterDelete = `still there: ${after.body.email}`;
      break;
    case 404:
    case 410:
      afterDelete = `${after.status} ${after.body.title}`;
      break;
    default:
      afterDelete = `unexpected ${after.status}`;
  }

  const missing = await api.getCustomer({ path: { customerId: "no-such-customer" } });
  return {
    created: created.body,
    location: created.headers.Location,
    patchedLastName: patched.body.lastName,
    staleStatus: stale.status,
    listed,
    afterDelete,
    missing: missing.status === 404 ? { status: missing.status, problem: missing.body } : { status: missing.status },
  };
}

/** A cart checked out: 202 with the job at Location, followed to its end. */
export async function checkoutExample(baseUrl: string, token: string, customerId: string) {
  const api = createRestClient({ baseUrl, token });
  const cart = await api.createCart({
    path: { customerId },
    body: { items: [{ sku: "BOOK-1", quantity: 1, unitPrice: 10 }] },
  });
  if (cart.status !== 201) throw new Error(`cart: ${cart.status}`);
  const accepted = await api.checkoutCart({ path: { cartId: cart.body.cartId } });
  if (accepted.status !== 202) throw new Error(`checkout: ${accepted.status}`);
  return api.waitFor(accepted); // the job's final representation: SUCCEEDED with its result, or FAILED
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await restExample(process.argv[2] ?? "http://127.0.0.1:3000", process.argv[3]), null, 2));
}
