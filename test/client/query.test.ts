// TanStack Query options from the client package, run by @tanstack/query-core's own QueryClient against the real
// server: query keys from the spec's resources, pages that follow Link, and a write over either transport
// invalidating the queries of the resources it writes, whichever transport read them.
import assert from "node:assert/strict";
import { InfiniteQueryObserver, MutationObserver, QueryClient } from "@tanstack/query-core";
import {
  createGraphqlClient,
  createGraphqlQueries,
  createRestClient,
  createRestQueries,
  CustomerDocument,
  CustomersDocument,
  UpdateCustomerDocument,
} from "twinspec-commerce-client";
import { ADMIN_TOKEN } from "../support/auth.js";
import { startServer, type TestServer } from "../support/server.js";

describe("TanStack Query options (client package) with @tanstack/query-core", function () {
  this.timeout(20_000);
  let s: TestServer;
  let queryClient: QueryClient;
  let rest: ReturnType<typeof createRestQueries>;
  let graphql: ReturnType<typeof createGraphqlQueries>;
  let customerId: string;
  before(async () => {
    s = await startServer();
    const api = createRestClient({ baseUrl: s.url, token: ADMIN_TOKEN });
    rest = createRestQueries(api);
    graphql = createGraphqlQueries(createGraphqlClient({ url: `${s.url}/graphql`, token: ADMIN_TOKEN }));
    for (let n = 0; n < 7; n++) {
      const created = await api.createCustomer({
        body: { firstName: `Q${n}`, lastName: "Query", email: `q${n}@example.com` },
      });
      if (created.status === 201) customerId = created.body.customerId;
    }
  });
  after(() => s.close());
  beforeEach(() => {
    queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  });
  afterEach(() => queryClient.clear());

  const invalidated = (queryKey: readonly unknown[]) => queryClient.getQueryState(queryKey)?.isInvalidated;

  it("queryOptions fetch typed data under keys that start with the resource; an error status throws the outcome", async () => {
    const byRest = rest.queryOptions("getCustomer", { path: { customerId } });
    assert.deepEqual(byRest.queryKey, ["customers", "getCustomer", { path: { customerId } }]);
    const customer = await queryClient.fetchQuery(byRest);
    assert.equal(customer?.customerId, customerId);
    const byGraphql = graphql.queryOptions(CustomerDocument, { customerId });
    assert.equal(byGraphql.queryKey[0], "customers");
    assert.equal((await queryClient.fetchQuery(byGraphql)).customer?.customerId, customerId);
    await assert.rejects(
      queryClient.fetchQuery(rest.queryOptions("getCustomer", { path: { customerId: "nobody" } })),
      (error: { status?: number }) => error.status === 404,
    );
  });

  it("a REST write invalidates that resource's queries of both transports, and only those", async () => {
    const byRest = rest.queryOptions("getCustomer", { path: { customerId } });
    const byGraphql = graphql.queryOptions(CustomerDocument, { customerId });
    const orders = rest.queryOptions("getJob", { path: { jobId: "none" } });
    await queryClient.fetchQuery(byRest);
    await queryClient.fetchQuery(byGraphql);
    await queryClient.fetchQuery(orders).catch(() => undefined);
    const etag = (
      await createRestClient({ baseUrl: s.url, token: ADMIN_TOKEN }).getCustomer({ path: { customerId } })
    ).response.headers.get("etag")!;
    await new MutationObserver(queryClient, rest.mutationOptions("patchCustomer")).mutate({
      path: { customerId },
      headers: { "If-Match": etag },
      body: { lastName: "ByRest" },
    });
    assert.equal(invalidated(byRest.queryKey), true);
    assert.equal(invalidated(byGraphql.queryKey), true, "the GraphQL query of the same resource");
    assert.equal(invalidated(orders.queryKey), false, "a job's query is not the customer's");
  });

  it("a GraphQL mutation invalidates the REST queries of the resource it writes", async () => {
    const byRest = rest.queryOptions("getCustomer", { path: { customerId } });
    const listed = rest.queryOptions("listCustomerOrders", { path: { customerId } });
    await queryClient.fetchQuery(byRest);
    await queryClient.fetchQuery(listed);
    const updated = await new MutationObserver(queryClient, graphql.mutationOptions(UpdateCustomerDocument)).mutate({
      customerId,
      input: { lastName: "ByGraphql" },
    });
    assert.equal(updated.updateCustomer?.lastName, "ByGraphql");
    assert.equal(invalidated(byRest.queryKey), true);
    assert.equal(invalidated(listed.queryKey), true, "a customer's orders are read under its customer too");
    assert.equal((await queryClient.fetchQuery({ ...byRest, staleTime: 0 }))?.lastName, "ByGraphql");
  });

  it("GraphQL infiniteQueryOptions chain pages by the variables `next` derives from the last one", async () => {
    const options = graphql.infiniteQueryOptions(CustomersDocument, { first: 3 }, (last) =>
      last.customers.length === 3 ? { after: last.customers[2].customerId } : undefined,
    );
    const observer = new InfiniteQueryObserver(queryClient, options);
    await observer.refetch();
    let result = observer.getCurrentResult();
    while (result.hasNextPage) result = await observer.fetchNextPage();
    const ids = result.data!.pages.flatMap((page) => page.customers.map((c) => c.customerId));
    assert.ok(ids.length >= 7, `${ids.length}`);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(options.queryKey[0], "customers");
  });

  it("infiniteQueryOptions follow the Link header page after page", async () => {
    const observer = new InfiniteQueryObserver(
      queryClient,
      rest.infiniteQueryOptions("listCustomers", { query: { limit: 3 } }),
    );
    await observer.refetch();
    let result = observer.getCurrentResult();
    while (result.hasNextPage) result = await observer.fetchNextPage();
    const ids = result.data!.pages.flatMap((page) => page.items.map((c) => c.customerId));
    assert.ok(
      ids.length >= 7 && result.data!.pages.length >= 3,
      `${ids.length} customers on ${result.data!.pages.length} pages`,
    );
    assert.equal(new Set(ids).size, ids.length);
  });
});
