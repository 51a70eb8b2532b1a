// REST adapter for carts and their checkout: parse → domain → response. No rule lives here.
import type { RestHandlers } from "../../generated/rest.js";
import type { Cart } from "../domain/carts.js";
import type { Services } from "../domain/services.js";
import { etagOf, preconditions, resourceHeaders } from "../http/conditional.js";
import { jobBody } from "./jobs.js";
import { domainProblem, locations } from "./outcomes.js";
import { pageLink } from "./pagination.js";
import type { Cart as RestCart } from "./representations.js";

export const cartBody = (c: Cart): RestCart => ({
  cartId: c.cartId,
  customerId: c.customerId,
  items: c.items,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

const cartsOf = (customerId: string) => `${locations.customer(customerId)}/carts`;

export function cartHandlers({ carts }: Services) {
  return {
    async listCustomerCarts(req) {
      try {
        const page = await carts.list(req.params.customerId, { limit: req.query.limit ?? 20, cursor: req.query.cursor });
        return { status: 200, body: { items: page.items.map(cartBody), nextCursor: page.nextCursor }, headers: pageLink(cartsOf(req.params.customerId), req.query, page) };
      } catch (e) {
        return domainProblem(e, ["invalid", "not_found", "gone", "moved"], { where: "query", moved: cartsOf });
      }
    },

    async createCart(req) {
      try {
        const c = await carts.create(req.params.customerId, req.body);
        return { status: 201, body: cartBody(c), headers: { Location: locations.cart(c.cartId), ETag: etagOf(c.version) } };
      } catch (e) {
        return domainProblem(e, ["invalid", "not_found", "gone", "moved"], { moved: cartsOf });
      }
    },

    async getCart(req) {
      try {
        const c = await carts.get(req.params.cartId);
        return { status: 200, body: cartBody(c), headers: resourceHeaders(c) };
      } catch (e) {
        return domainProblem(e, ["not_found", "gone"]);
      }
    },

    async replaceCart(req) {
      try {
        const c = await carts.replaceItems(req.params.cartId, req.body, preconditions(req.headers));
        return { status: 200, body: cartBody(c), headers: resourceHeaders(c) };
      } catch (e) {
        return domainProblem(e, ["invalid", "not_found", "gone", "conflict", "precondition"]);
      }
    },

    async deleteCart(req) {
      try {
        await carts.delete(req.params.cartId, preconditions(req.headers));
        return { status: 204 };
      } catch (e) {
        return domainProblem(e, ["not_found", "gone", "precondition"]);
      }
    },

    async checkoutCart(req) {
      try {
        const job = await carts.checkout(req.params.cartId);
        return { status: 202, body: jobBody(job), headers: { Location: locations.job(job.jobId) } };
      } catch (e) {
        return domainProblem(e, ["not_found", "gone", "conflict"]);
      }
    },
  } satisfies Partial<RestHandlers>;
}
