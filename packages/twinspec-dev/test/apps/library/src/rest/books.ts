// REST handlers for the books operations of openapi.yaml: request → domain (src/domain/books.ts) → response.
import type { HandlersByTag } from "../../generated/rest.js";
import type { components } from "../../generated/openapi.js";
import { location } from "../../generated/contract.js";
import type { Book } from "../domain/books.js";

const bookBody = (b: Book): components["schemas"]["Book"] => ({
  bookId: b.bookId,
  title: b.title,
  ...(b.isbn !== undefined ? { isbn: b.isbn } : {}),
  copies: b.copies,
  available: b.available,
  createdAt: b.createdAt,
});

export const handlers: HandlersByTag["books"] = {
  async addBook(req, { services }) {
    const b = await services.books.add(req.body);
    return { status: 201, body: bookBody(b), headers: { Location: location("books", b.bookId) } };
  },
  async getBook(req, { services }) {
    return { status: 200, body: bookBody(await services.books.get(req.params.bookId)) };
  },
};
