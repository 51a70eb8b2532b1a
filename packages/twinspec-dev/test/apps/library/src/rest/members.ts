// REST handlers for the members operations of openapi.yaml: request → domain (src/domain/members.ts) → response.
import type { HandlersByTag } from "../../generated/rest.js";
import type { components } from "../../generated/openapi.js";
import { location } from "../../generated/contract.js";
import { pageLink } from "twinspec";
import type { Member } from "../domain/members.js";

const memberBody = (m: Member): components["schemas"]["Member"] => ({
  memberId: m.memberId,
  name: m.name,
  ...(m.email !== undefined ? { email: m.email } : {}),
  createdAt: m.createdAt,
});

export const handlers: HandlersByTag["members"] = {
  async createMember(req, { services }) {
    const m = await services.members.create(req.body);
    return { status: 201, body: memberBody(m), headers: { Location: location("members", m.memberId) } };
  },
  async getMember(req, { services }) {
    return { status: 200, body: memberBody(await services.members.get(req.params.memberId)) };
  },
  async listMembers(req, { services }) {
    const page = await services.members.list({ limit: req.query.limit, cursor: req.query.cursor });
    return {
      status: 200,
      body: { items: page.items.map(memberBody), nextCursor: page.nextCursor },
      headers: pageLink("/members", req.query, page),
    };
  },
};
