// The typed REST client in use: `npx tsx examples/rest.ts [baseUrl] [token]` against a running server.
// npm test runs restExample against a real server (test/examples.test.ts).
import { pathToFileURL } from "node:url";
import { createRestClient, outcome } from "../generated/client/rest.js";

export async function restExample(baseUrl: string, token?: string) {
  const api = createRestClient({ baseUrl, token });

  // 201 → data is a Customer; any declared error → error is a Problem.
  const created = await api.POST("/customers", { body: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" } });
  if (created.error) throw new Error(`create failed: ${created.response.status} ${created.error.title}`);
  const { customerId } = created.data;

  const read = await api.GET("/customers/{customerId}", { params: { path: { customerId } } });
  if (!read.data) throw new Error(`read failed: ${read.response.status}`);
  const etag = read.response.headers.get("ETag") ?? "*";

  // A merge patch, guarded by If-Match against lost updates.
  const patched = await api.PATCH("/customers/{customerId}", {
    params: { path: { customerId }, header: { "If-Match": etag } },
    headers: { "Content-Type": "application/merge-patch+json" },
    body: { lastName: "King" },
  });
  if (!patched.data) throw new Error(`patch failed: ${patched.response.status} ${patched.error?.detail}`);

  const page = await api.GET("/customers", { params: { query: { limit: 10 } } });
  const listed = page.data?.items.map((c) => c.customerId) ?? [];

  await api.DELETE("/customers/{customerId}", { params: { path: { customerId } } });

  // Every declared status is its own case: the compiler knows 410's body is a Problem and 200's a Customer.
  const after = outcome("getCustomer", await api.GET("/customers/{customerId}", { params: { path: { customerId } } }));
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

  const missing = await api.GET("/customers/{customerId}", { params: { path: { customerId: "no-such-customer" } } });
  return {
    created: created.data,
    patchedLastName: patched.data.lastName,
    listed,
    afterDelete,
    missing: { status: missing.response.status, problem: missing.error },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await restExample(process.argv[2] ?? "http://127.0.0.1:3000", process.argv[3]), null, 2));
}
