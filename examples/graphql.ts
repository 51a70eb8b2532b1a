// The typed GraphQL client in use: `npx tsx examples/graphql.ts [url] [token]` against a running server.
// Operations live in client/operations/*.graphql; `npm run generate` makes the typed documents imported here, each
// with its persisted hash: the client sends only that hash, so this works against GRAPHQL_PERSISTED_ONLY=true too.
// npm test runs these functions against a real server (test/examples.test.ts).
import { pathToFileURL } from "node:url";
import { createGraphqlClient, GraphqlRequestError } from "twinspec-commerce-client";
import {
  CreateCustomerDocument,
  CustomerDocument,
  DeleteCustomerDocument,
  OrderStatusChangedDocument,
  PlaceOrderDocument,
  UpdateCustomerDocument,
  UpdateOrderStatusDocument,
} from "twinspec-commerce-client";

/** Queries and mutations over HTTP. */
export async function graphqlExample(url: string, token?: string) {
  const gql = createGraphqlClient({ url, token });
  const { createCustomer } = await gql.data(CreateCustomerDocument, {
    input: { firstName: "Grace", lastName: "Hopper", email: "grace@example.com" },
  });
  const customerId = createCustomer!.customerId;

  const { updateCustomer } = await gql.data(UpdateCustomerDocument, {
    customerId,
    input: { lastName: "Murray Hopper" },
  });
  const { customer } = await gql.data(CustomerDocument, { customerId });

  await gql.data(DeleteCustomerDocument, { customerId });
  // A declared failure comes back in errors, with its code: the customer is gone now.
  let afterDelete = "";
  try {
    await gql.data(CustomerDocument, { customerId });
  } catch (error) {
    if (!(error instanceof GraphqlRequestError)) throw error;
    afterDelete = error.errors.map((e) => e.extensions?.code).join(",");
  }
  return { customerId, updatedLastName: updateCustomer?.lastName, readBack: customer, afterDelete };
}

/** A subscription over graphql-ws: follow one customer's orders while they move PENDING → PAID → SHIPPED. */
export async function subscriptionExample(url: string, token?: string) {
  const gql = createGraphqlClient({ url, token });
  try {
    const { createCustomer } = await gql.data(CreateCustomerDocument, {
      input: { firstName: "Alan", lastName: "Turing", email: "alan@example.com" },
    });
    const customerId = createCustomer!.customerId;
    const { placeOrder } = await gql.data(PlaceOrderDocument, {
      customerId,
      input: { items: [{ sku: "BOOK-1", quantity: 2, unitPrice: 12.5 }] },
    });
    const orderId = placeOrder!.orderId;

    const events = gql.subscribe(OrderStatusChangedDocument, { customerId });
    const received: { status: string; sentAt: string }[] = [];
    const first = events.next(); // connects and subscribes
    // graphql-ws acknowledges the connection, not each subscription: give the server a moment to start listening.
    await new Promise((resolve) => setTimeout(resolve, 250));
    for (const status of ["PAID", "SHIPPED"] as const) await gql.data(UpdateOrderStatusDocument, { orderId, status });
    for (let next = await first; !next.done; next = await events.next()) {
      const change = next.value.data?.orderStatusChanged;
      if (change) received.push({ status: change.status, sentAt: change.sentAt });
      if (received.length === 2) break;
    }
    await events.return?.();
    return { orderId, received };
  } finally {
    await gql.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [url = "http://127.0.0.1:3000/graphql", token] = process.argv.slice(2);
  console.log(JSON.stringify(await graphqlExample(url, token), null, 2));
  console.log(JSON.stringify(await subscriptionExample(url, token), null, 2));
}
