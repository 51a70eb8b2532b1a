// The capabilities both transports offer, paired once: REST operationId ↔ GraphQL field. `npm run generate`
// checks that each pair needs the same scopes (openapi.yaml `security` vs schema.graphql `@auth`).
export const capabilities: Record<string, string> = {
  listCustomers: "Query.customers",
  getCustomer: "Query.customer",
  createCustomer: "Mutation.createCustomer",
  patchCustomer: "Mutation.updateCustomer",
  deleteCustomer: "Mutation.deleteCustomer",
  listCustomerOrders: "Customer.orders",
  placeOrder: "Mutation.placeOrder",
  getOrder: "Query.order",
  updateOrder: "Mutation.updateOrderStatus",
  listCustomerCarts: "Customer.carts",
  createCart: "Mutation.createCart",
  getCart: "Query.cart",
  replaceCart: "Mutation.replaceCartItems",
  deleteCart: "Mutation.deleteCart",
  checkoutCart: "Mutation.checkoutCart",
  getJob: "Query.job",
};
