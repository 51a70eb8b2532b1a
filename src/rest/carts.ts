// REST handlers for the carts operations of openapi.yaml: request → domain (src/domain/carts.ts) → response.
// `npm run generate` adds a stub here for each new operation of this tag; replace its body.
import type { components } from "../../generated/openapi.js";
import type { HandlersByTag } from "../../generated/rest.js";
import type { Cart } from "../domain/carts.js";
import { etagOf, resourceHeaders, pageLink } from "twinspec";
import { location } from "../../generated/contract.js";

import { jobBody } from "./jobs.js";

const cartBody = (c: Cart): components["schemas"]["Cart"] => ({
  cartId: c.cartId,
  customerId: c.customerId,
  items: c.items,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

const cartsOf = (customerId: string) => `${location("customers", customerId)}/carts`;

export const handlers: HandlersByTag["carts"] = {
  async listCustomerCarts(req, { services }) {
    const page = await services.carts.list(req.params.customerId, { limit: req.query.limit, cursor: req.query.cursor });
    return {
      status: 200,
      body: { items: page.items.map(cartBody), nextCursor: page.nextCursor },
      headers: pageLink(cartsOf(req.params.customerId), req.query, page),
    };
  },

  async createCart(req, { services }) {
    const c = await services.carts.create(req.params.customerId, req.body);
    return {
      status: 201,
      body: cartBody(c),
      headers: { Location: location("carts", c.cartId), ETag: etagOf(c.version) },
    };
  },

  async getCart(req, { services }) {
    const c = await services.carts.get(req.params.cartId);
    return { status: 200, body: cartBody(c), headers: resourceHeaders(c) };
  },

  async replaceCart(req, { services, preconditions }) {
    const c = await services.carts.replaceItems(req.params.cartId, req.body, preconditions);
    return { status: 200, body: cartBody(c), headers: resourceHeaders(c) };
  },

  async deleteCart(req, { services, preconditions }) {
    await services.carts.delete(req.params.cartId, preconditions);
    return { status: 204 };
  },

  async checkoutCart(req, { services }) {
    const job = await services.carts.checkout(req.params.cartId);
    return { status: 202, body: jobBody(job), headers: { Location: location("jobs", job.jobId) } };
  },
};
