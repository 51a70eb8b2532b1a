// REST handlers for the customers operations of openapi.yaml: request → domain (src/domain/customers.ts) → response.
// `npm run generate` adds a stub here for each new operation of this tag; replace its body.
import type { HandlersByTag } from "../../generated/rest.js";
import type { components } from "../../generated/openapi.js";

import type { Avatar } from "../domain/avatars.js";
import type { Customer } from "../domain/customers.js";
import { etagOf, prefersMinimal, resourceHeaders, pageLink } from "twinspec";
import { location } from "../../generated/contract.js";

const customerBody = (c: Customer): components["schemas"]["Customer"] => ({
  customerId: c.customerId,
  firstName: c.firstName,
  lastName: c.lastName,
  email: c.email,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

const avatarBody = (a: Avatar): components["schemas"]["Avatar"] => ({
  customerId: a.customerId,
  mediaType: a.mediaType,
  size: a.size,
  updatedAt: a.updatedAt,
});

const created = (c: Customer) => ({
  status: 201 as const,
  body: customerBody(c),
  headers: { Location: location("customers", c.customerId), ETag: etagOf(c.version) },
});

export const handlers: HandlersByTag["customers"] = {
  async listCustomers(req, { services }) {
    const page = await services.customers.list({ limit: req.query.limit, cursor: req.query.cursor });
    return {
      status: 200,
      body: { items: page.items.map(customerBody), nextCursor: page.nextCursor },
      headers: pageLink("/customers", req.query, page),
    };
  },

  async createCustomer(req, { services }) {
    return created(await services.customers.create(req.body));
  },

  async getCustomer(req, { services }) {
    const c = await services.customers.get(req.params.customerId);
    return { status: 200, body: customerBody(c), headers: resourceHeaders(c) };
  },

  async putCustomer(req, { services, preconditions }) {
    const { customer: c, created: isNew } = await services.customers.put(
      req.params.customerId,
      req.body,
      preconditions,
    );
    return isNew ? created(c) : { status: 200, body: customerBody(c), headers: resourceHeaders(c) };
  },

  async patchCustomer(req, { services, preconditions }) {
    const c = await services.customers.update(req.params.customerId, req.body, preconditions);
    if (prefersMinimal(req.headers)) return { status: 204, headers: { ETag: etagOf(c.version) } };
    return { status: 200, body: customerBody(c), headers: resourceHeaders(c) };
  },

  async mergeCustomer(req, { services }) {
    const survivor = await services.customers.merge(req.params.customerId, req.body.into);
    return { status: 200, body: customerBody(survivor), headers: resourceHeaders(survivor) };
  },

  async deleteCustomer(req, { services, preconditions }) {
    await services.customers.delete(req.params.customerId, preconditions);
    return { status: 204 };
  },

  async getCustomerAvatar(req, { services }) {
    const a = await services.customers.avatars.get(req.params.customerId);
    return { status: 200, body: a.content, contentType: a.mediaType, headers: resourceHeaders(a) };
  },

  async putCustomerAvatar(req, { services, preconditions }) {
    const { image } = req.body;
    const { avatar: a, created: isNew } = await services.customers.avatars.put(
      req.params.customerId,
      { mediaType: image.mediaType, content: image.content },
      preconditions,
    );
    if (isNew)
      return {
        status: 201,
        body: avatarBody(a),
        headers: { Location: `${location("customers", a.customerId)}/avatar`, ETag: etagOf(a.version) },
      };
    return { status: 200, body: avatarBody(a), headers: resourceHeaders(a) };
  },

  async deleteCustomerAvatar(req, { services, preconditions }) {
    await services.customers.avatars.delete(req.params.customerId, preconditions);
    return { status: 204 };
  },
};
