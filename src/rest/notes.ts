// REST handlers for the notes operations of openapi.yaml: request → domain (src/domain/notes.ts) → response. The
// order's 404 / 410 and whose it is were answered before these run (x-resource owner: { through: orders }).
import type { components } from "../../generated/openapi.js";
import type { HandlersByTag } from "../../generated/rest.js";
import type { OrderNote } from "../domain/notes.js";
import { pageLink } from "twinspec";
import { location } from "../../generated/contract.js";

const noteBody = (n: OrderNote): components["schemas"]["OrderNote"] => ({
  noteId: n.noteId,
  orderId: n.orderId,
  text: n.text,
  createdAt: n.createdAt,
});

export const handlers: HandlersByTag["notes"] = {
  async listOrderNotes(req, { services }) {
    const page = await services.notes.list(req.params.orderId, { limit: req.query.limit, cursor: req.query.cursor });
    return {
      status: 200,
      body: { items: page.items.map(noteBody), nextCursor: page.nextCursor },
      headers: pageLink(`${location("orders", req.params.orderId)}/notes`, req.query, page),
    };
  },
  async addOrderNote(req, { services }) {
    const n = await services.notes.add(req.params.orderId, req.body);
    return { status: 201, body: noteBody(n), headers: { Location: location("notes", n.noteId) } };
  },
  async getOrderNote(req, { services }) {
    return { status: 200, body: noteBody(await services.notes.get(req.params.noteId)) };
  },
};
