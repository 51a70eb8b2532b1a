// A valid request body per operation of openapi.yaml, for tests that walk every operation.
import { item } from "./fixtures.js";

export const BODIES: Record<string, { type: string; body: unknown }> = {
  createCustomer: { type: "application/json", body: { firstName: "M", lastName: "X", email: "walk-new@example.com" } },
  putCustomer: { type: "application/json", body: { firstName: "M", lastName: "X", email: "walk-put@example.com" } },
  patchCustomer: { type: "application/merge-patch+json", body: { lastName: "Patched" } },
  mergeCustomer: { type: "application/json", body: { into: "placeholder" } },
  placeOrder: { type: "application/json", body: { items: [item()] } },
  updateOrder: { type: "application/merge-patch+json", body: { status: "PAID" } },
  createCart: { type: "application/json", body: { items: [] } },
  replaceCart: { type: "application/json", body: { items: [item()] } },
};
