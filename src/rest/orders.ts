// REST handlers for the orders operations of openapi.yaml: request → domain (src/domain/orders.ts) → response.
// `npm run generate` adds a stub here for each new operation of this tag; replace its body.
import type { components } from "../../generated/openapi.js";
import type { HandlersByTag } from "../../generated/rest.js";
import type { Order } from "../domain/orders.js";
import { etagOf, prefersMinimal, resourceHeaders, pageLink } from "twinspec";
import { location } from "../../generated/contract.js";

const orderBody = (o: Order): components["schemas"]["Order"] => ({
  orderId: o.orderId,
  customerId: o.customerId,
  status: o.status,
  items: o.items,
  total: o.total,
  createdAt: o.createdAt,
  updatedAt: o.updatedAt,
});

const ordersOf = (customerId: string) => `${location("customers", customerId)}/orders`;

export const handlers: HandlersByTag["orders"] = {
  async listCustomerOrders(req, { services }) {
    const page = await services.orders.list(req.params.customerId, {
      limit: req.query.limit,
      cursor: req.query.cursor,
    });
    return {
      status: 200,
      body: { items: page.items.map(orderBody), nextCursor: page.nextCursor },
      headers: pageLink(ordersOf(req.params.customerId), req.query, page),
    };
  },

  async placeOrder(req, { services }) {
    const o = await services.orders.place(req.params.customerId, req.body);
    return {
      status: 201,
      body: orderBody(o),
      headers: { Location: location("orders", o.orderId), ETag: etagOf(o.version) },
    };
  },

  async getOrder(req, { services }) {
    const o = await services.orders.get(req.params.orderId);
    return { status: 200, body: orderBody(o), headers: resourceHeaders(o) };
  },

  async updateOrder(req, { services, preconditions }) {
    const o = await services.orders.changeStatus(req.params.orderId, req.body.status, preconditions);
    if (prefersMinimal(req.headers)) return { status: 204, headers: { ETag: etagOf(o.version) } };
    return { status: 200, body: orderBody(o), headers: resourceHeaders(o) };
  },
};
