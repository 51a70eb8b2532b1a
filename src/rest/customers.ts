// REST adapter for customers: parse → domain → response. No rule lives here.
import type { RestHandlers } from "../../generated/rest.js";
import type { Customer } from "../domain/customers.js";
import type { Services } from "../domain/services.js";
import { etagOf, preconditions, prefersMinimal, resourceHeaders } from "../http/conditional.js";
import { domainProblem, locations } from "./outcomes.js";
import { pageLink } from "./pagination.js";
import type { Customer as RestCustomer } from "./representations.js";

export const customerBody = (c: Customer): RestCustomer => ({
  customerId: c.customerId,
  firstName: c.firstName,
  lastName: c.lastName,
  email: c.email,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

export function customerHandlers({ customers }: Services) {
  return {
    async listCustomers(req) {
      try {
        const page = await customers.list({ limit: req.query.limit ?? 20, cursor: req.query.cursor });
        return { status: 200, body: { items: page.items.map(customerBody), nextCursor: page.nextCursor }, headers: pageLink("/customers", req.query, page) };
      } catch (e) {
        return domainProblem(e, ["invalid"], { where: "query" });
      }
    },

    async createCustomer(req) {
      try {
        const c = await customers.create(req.body);
        return { status: 201, body: customerBody(c), headers: { Location: locations.customer(c.customerId), ETag: etagOf(c.version) } };
      } catch (e) {
        return domainProblem(e, ["invalid", "conflict"]);
      }
    },

    async getCustomer(req) {
      try {
        const c = await customers.get(req.params.customerId);
        return { status: 200, body: customerBody(c), headers: resourceHeaders(c) };
      } catch (e) {
        return domainProblem(e, ["not_found", "gone", "moved"]);
      }
    },

    async putCustomer(req) {
      try {
        const { customer: c, created } = await customers.put(req.params.customerId, req.body, preconditions(req.headers));
        if (created) return { status: 201, body: customerBody(c), headers: { Location: locations.customer(c.customerId), ETag: etagOf(c.version) } };
        return { status: 200, body: customerBody(c), headers: resourceHeaders(c) };
      } catch (e) {
        return domainProblem(e, ["invalid", "conflict", "gone", "moved", "precondition"]);
      }
    },

    async patchCustomer(req) {
      try {
        const c = await customers.update(req.params.customerId, req.body, preconditions(req.headers));
        if (prefersMinimal(req.headers)) return { status: 204, headers: { ETag: etagOf(c.version) } };
        return { status: 200, body: customerBody(c), headers: resourceHeaders(c) };
      } catch (e) {
        return domainProblem(e, ["invalid", "not_found", "conflict", "gone", "moved", "precondition"]);
      }
    },

    async mergeCustomer(req) {
      try {
        const survivor = await customers.merge(req.params.customerId, req.body.into);
        return { status: 200, body: customerBody(survivor), headers: resourceHeaders(survivor) };
      } catch (e) {
        return domainProblem(e, ["invalid", "not_found", "gone", "moved", "conflict"]);
      }
    },

    async deleteCustomer(req) {
      try {
        await customers.delete(req.params.customerId, preconditions(req.headers));
        return { status: 204 };
      } catch (e) {
        return domainProblem(e, ["not_found", "gone", "moved", "precondition"]);
      }
    },
  } satisfies Partial<RestHandlers>;
}
