// What the typed clients refuse to compile. Each `@ts-expect-error: <fragment>` line must fail for that reason:
// `tsc --noEmit` (npm test) fails if a line stops erroring, and test/examples/type-safety.test.ts checks that
// each one fails with the stated message. Never run; only type-checked.
import { createGraphqlClient } from "../client/graphql-client.js";
import { createRestClient, outcome } from "../generated/client/rest.js";
import { CreateCustomerDocument, CustomerDocument, UpdateOrderStatusDocument } from "../generated/client/graphql/graphql.js";
import type { components } from "../generated/openapi.js";

type Customer = components["schemas"]["Customer"];

export async function restTypeSafety() {
  const api = createRestClient({ baseUrl: "http://127.0.0.1:3000" });
  const res = await api.GET("/customers/{customerId}", { params: { path: { customerId: "c1" } } });
  if (res.data) {
    // @ts-expect-error: Property 'emial' does not exist
    console.log(res.data.emial);
  }
  // @ts-expect-error: Property 'email' is missing
  await api.POST("/customers", { body: { firstName: "Ada", lastName: "Lovelace" } });
  // @ts-expect-error: Type 'string' is not assignable to type 'number'
  await api.GET("/customers", { params: { query: { limit: "10" } } });
  // @ts-expect-error: Argument of type '"/customer/{customerId}"' is not assignable
  await api.GET("/customer/{customerId}", { params: { path: { customerId: "c1" } } });

  // A 404 body is a Problem, never a Customer.
  const out = outcome("getCustomer", res);
  if (out.status === 404) {
    // @ts-expect-error: is missing the following properties from type
    const customer: Customer = out.body;
    console.log(customer);
  }
  if (res.error) {
    // @ts-expect-error: is missing the following properties from type
    const customer: Customer = res.error;
    console.log(customer);
  }
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
}
