// The one place where openapi.yaml and schema.graphql may differ on purpose, each difference with its reason.
// `npm run generate` fails on any other disagreement, and on a declaration here that no longer matches anything.
import type { AgreementConfig } from "./spec-agreement.js";

export const agreementConfig: AgreementConfig = {
  // Types with the same name, and request bodies of an operationId that is also a root field, pair by themselves.
  pairs: {
    CustomerPatch: "UpdateCustomerInput", // REST patchCustomer ↔ GraphQL updateCustomer
  },
  intended: {
    "Customer.orders": "GraphQL navigates to related objects; REST links to /customers/{customerId}/orders",
    "Customer.carts": "GraphQL navigates to related objects; REST links to /customers/{customerId}/carts",
    "Order.customer": "GraphQL navigates to the owner; REST carries customerId (present on both sides)",
    "Cart.customer": "GraphQL navigates to the owner; REST carries customerId (present on both sides)",
    "JobResult.orderUrl": "a URL is a REST notion; GraphQL clients follow JobResult.order instead",
    "JobResult.order": "GraphQL navigates to the placed order; REST gives orderUrl",
    "Job.error": "REST embeds the whole RFC 9457 Problem; GraphQL's JobError keeps only title and detail",
  },
  scalars: {
    ID: { type: "string" },
    String: { type: "string" },
    Int: { type: "integer" },
    Float: { type: "number" },
    Boolean: { type: "boolean" },
    DateTime: { type: "string", format: "date-time" },
  },
};
