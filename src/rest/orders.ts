// REST adapter for orders: parse → domain → response. No rule lives here.
import type { RestHandlers } from "../../generated/rest.js";
import type { Order } from "../domain/orders.js";
import type { Services } from "../domain/services.js";
import { etagOf, preconditions, prefersMinimal, resourceHeaders } from "../http/conditional.js";
import { domainProblem, locations } from "./outcomes.js";
import { pageLink } from "./pagination.js";
import type { Order as RestOrder } from "./representations.js";

export const orderBody = (o: Order): RestOrder => ({
  orderId: o.orderId,
  customerId: o.customerId,
  status: o.status,
  items: o.items,
  total: o.total,
  createdAt: o.createdAt,
  updatedAt: o.updatedAt,
});

const ordersOf = (customerId: string) => `${locations.customer(customerId)}/orders`;

export function orderHandlers({ orders }: Services) {
  return {
    async listCustomerOrders(req) {
      try {
        const page = await orders.list(req.params.customerId, { limit: req.query.limit ?? 20, cursor: req.query.cursor });
        return { status: 200, body: { items: page.items.map(orderBody), nextCursor: page.nextCursor }, headers: pageLink(ordersOf(req.params.customerId), req.query, page) };
      } catch (e) {
        return domainProblem(e, ["invalid", "not_found", "gone", "moved"], { where: "query", moved: ordersOf });
      }
    },

    async placeOrder(req) {
      try {
        const o = await orders.place(req.params.customerId, req.body);
        return { status: 201, body: orderBody(o), headers: { Location: locations.order(o.orderId), ETag: etagOf(o.version) } };
      } catch (e) {
        return domainProblem(e, ["invalid", "not_found", "gone", "moved"], { moved: ordersOf });
      }
    },

    async getOrder(req) {
      try {
        const o = await orders.get(req.params.orderId);
        return { status: 200, body: orderBody(o), headers: resourceHeaders(o) };
      } catch (e) {
        return domainProblem(e, ["not_found", "gone"]);
      }
    },

    async updateOrder(req) {
      try {
        const o = await orders.changeStatus(req.params.orderId, req.body.status, preconditions(req.headers));
        if (prefersMinimal(req.headers)) return { status: 204, headers: { ETag: etagOf(o.version) } };
        return { status: 200, body: orderBody(o), headers: { ETag: etagOf(o.version) } };
      } catch (e) {
        return domainProblem(e, ["invalid", "not_found", "gone", "conflict", "precondition"]);
      }
    },
  } satisfies Partial<RestHandlers>;
}
