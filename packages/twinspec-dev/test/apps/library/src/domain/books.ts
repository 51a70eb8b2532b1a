// The books domain: an administrator adds a book with its copies; a loan takes one off the shelf and its return
// puts it back (src/domain/loans.ts, in the loan's transaction).
import type { Kysely, Selectable } from "kysely";
import type { Database } from "twinspec/schema";
import { ConflictError, NotFoundError, now } from "twinspec";
import { newId } from "../../generated/contract.js";
import type { BooksTable } from "../../generated/database.js";
import type * as Spec from "../../generated/models.js";
import type { Deps } from "../../generated/wiring.js";

/** One Book as the domain holds it; GraphQL resolves Book's fields from it. */
export interface Book {
  bookId: string;
  title: string;
  isbn?: string;
  copies: number;
  available: number;
  createdAt: string;
}

const toBook = (r: Selectable<BooksTable>): Book => ({
  bookId: r.book_id,
  title: r.title,
  ...(r.isbn !== null ? { isbn: r.isbn } : {}),
  copies: r.copies,
  available: r.available,
  createdAt: r.created_at,
});

async function liveRow(db: Kysely<Database>, bookId: string): Promise<Selectable<BooksTable>> {
  const row = await db
    .selectFrom("books")
    .selectAll()
    .where("book_id", "=", bookId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!row) throw new NotFoundError("book", bookId);
  return row;
}

export class BookService {
  constructor(private readonly deps: Deps) {}

  private get db() {
    return this.deps.store.db;
  }

  async add(input: Spec.BookInput): Promise<Book> {
    const at = now();
    const row = {
      book_id: newId("books"),
      title: input.title,
      isbn: input.isbn ?? null,
      copies: input.copies,
      available: input.copies,
      version: 1,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    };
    await this.db.insertInto("books").values(row).execute();
    return toBook(row);
  }

  async get(bookId: string): Promise<Book> {
    return toBook(await liveRow(this.db, bookId));
  }

  /** The live Book instances among many ids, in one query, in any order (missing ones left out). */
  async getMany(ids: readonly string[]): Promise<Book[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom("books")
      .selectAll()
      .where("book_id", "in", ids)
      .where("deleted_at", "is", null)
      .execute();
    return rows.map(toBook);
  }

  /** Takes a copy off the shelf, in the caller's transaction (its row locked): 409 when none is left. */
  async lend(trx: Kysely<Database>, bookId: string): Promise<void> {
    const book = await liveRow(trx, bookId);
    if (book.available === 0)
      throw new ConflictError(`no copy of book ${bookId} is left to lend: all ${book.copies} are out`);
    await this.shelve(trx, book, -1);
  }

  /** Puts a copy back on the shelf, in the caller's transaction (its row locked). */
  async takeBack(trx: Kysely<Database>, bookId: string): Promise<void> {
    await this.shelve(trx, await liveRow(trx, bookId), +1);
  }

  private async shelve(trx: Kysely<Database>, book: Selectable<BooksTable>, change: number): Promise<void> {
    await trx
      .updateTable("books")
      .set({ available: book.available + change, version: book.version + 1, updated_at: now() })
      .where("book_id", "=", book.book_id)
      .execute();
  }
}

export function createService(deps: Deps): BookService {
  return new BookService(deps);
}
