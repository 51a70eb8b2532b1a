// What the typed clients refuse to compile. Each `@ts-expect-error: <fragment>` line must fail for that reason:
// `tsc --noEmit` (npm test) fails if a line stops erroring, and test/examples/type-safety.test.ts checks that
// each one fails with the stated message. Never run; only type-checked.
import {
  createGraphqlClient,
  createRestClient,
  CreateCustomerDocument,
  CustomerDocument,
  UpdateOrderStatusDocument,
  parseWebhook,
  type ErrorCode,
} from "twinspec-commerce-client";
import type { components } from "../generated/openapi.js";

type Customer = components["schemas"]["Customer"];

export async function restTypeSafety() {
  const api = createRestClient({ baseUrl: "http://127.0.0.1:3000" });
  const res = await api.getCustomer({ path: { customerId: "c1" } });
  if (res.status === 200) {
    // @ts-expect-error: Property 'emial' does not exist
    console.log(res.body.emial);
    // @ts-expect-error: Property 'Location' does not exist
    console.log(res.headers.Location); // a header getCustomer's 200 does not declare
  }
  // @ts-expect-error: Property 'email' is missing
  await api.createCustomer({ body: { firstName: "Ada", lastName: "Lovelace" } });
  // @ts-expect-error: Type 'string' is not assignable to type 'number'
  await api.listCustomers({ query: { limit: "10" } });
  // @ts-expect-error: Property 'getCustomers' does not exist
  await api.getCustomers({ path: { customerId: "c1" } });
  // @ts-expect-error: Property 'path' is missing
  await api.getCustomer({});
  // @ts-expect-error: Argument of type '"getCustomer"' is not assignable
  api.paginate("getCustomer", { path: { customerId: "c1" } }); // not a paged operation

  // A 404 body is a Problem, never a Customer.
  if (res.status === 404) {
    // @ts-expect-error: is missing the following properties from type
    const customer: Customer = res.body;
    console.log(customer);
  }
  // @ts-expect-error: This comparison appears to be unintentional
  if (res.status === 201) console.log("getCustomer declares no 201");
}

export async function graphqlTypeSafety() {
  const gql = createGraphqlClient({ url: "http://127.0.0.1:3000/graphql" });
  const { customer } = await gql.data(CustomerDocument, { customerId: "c1" });
  // @ts-expect-error: Property 'emial' does not exist
  console.log(customer?.emial);
  // @ts-expect-error: Property 'orders' does not exist
  console.log(customer?.orders); // a real field, but this operation did not select it
  // @ts-expect-error: Type 'number' is not assignable to type 'string'
  await gql.data(CustomerDocument, { customerId: 42 });
  // @ts-expect-error: Expected 2 arguments, but got 1
  await gql.data(CustomerDocument);
  // @ts-expect-error: Property 'email' is missing
  await gql.data(CreateCustomerDocument, { input: { firstName: "Ada", lastName: "Lovelace" } });
  // @ts-expect-error: Type '"REFUNDED"' is not assignable
  await gql.data(UpdateOrderStatusDocument, { orderId: "o1", status: "REFUNDED" });
  // @ts-expect-error: Type '"TEAPOT"' is not assignable to type 'ErrorCode'
  const code: ErrorCode = "TEAPOT";
  console.log(code);
}

export function webhookTypeSafety(secret: string, headers: Record<string, string>, rawBody: string) {
  const event = parseWebhook(secret, headers, rawBody);
  if (event.type === "orderStatusChanged") {
    console.log(event.id, event.data.orderId, event.timestamp);
    // @ts-expect-error: Property 'state' does not exist
    console.log(event.data.state);
    // @ts-expect-error: This comparison appears to be unintentional
    if (event.data.status === "REFUNDED") console.log("not an OrderStatus");
  }
  // @ts-expect-error: This comparison appears to be unintentional
  if (event.type === "orderShipped") console.log("not a declared webhook");
  // @ts-expect-error: Property 'orderShipped' does not exist
  parseWebhook.orderShipped(secret, headers, rawBody);
  const changed = parseWebhook.orderStatusChanged(secret, headers, rawBody);
  // @ts-expect-error: Property 'total' does not exist
  console.log(changed.data.total);
  // @ts-expect-error: Expected 3-4 arguments, but got 2
  parseWebhook(secret, rawBody);
}
