// Notes written on an order. The order is their parent (openapi.yaml: owner: { through: orders, by: orderId }):
// the framework answers the order's 404 / 410 and its customer's ownership before any method here runs, so this
// module holds only what is the notes' own.
import type { Selectable } from "kysely";
import { keysetPager, liveRowsByParent, now, NotFoundError, projections, type Page, type PageRequest } from "twinspec";
import type { Deps } from "../../generated/wiring.js";
import { newId } from "../../generated/contract.js";
import type { OrderNotesTable } from "../../generated/database.js";
import type * as Spec from "../../generated/models.js";

/** One OrderNote as the domain holds it; GraphQL resolves OrderNote's fields from it. */
export type OrderNote = Spec.OrderNote;

const projection = projections<Selectable<OrderNotesTable>, OrderNote>(
  {
    noteId: { column: "note_id" },
    orderId: { column: "order_id" },
    text: { column: "text" },
    createdAt: { column: "created_at" },
  },
  ["noteId", "orderId"],
);
const toNote = projection().map;

export class OrderNoteService {
  private readonly page;
  /** Live notes of each order, oldest first, in one query: what GraphQL's Order.notes is batched over. */
  readonly listByParents: (
    orderIds: readonly string[],
    fields?: readonly string[],
  ) => Promise<Map<string, OrderNote[]>>;

  constructor(private readonly deps: Deps) {
    const db = deps.store.db;
    this.page = keysetPager(
      db,
      (orderId: string) =>
        db.selectFrom("order_notes").selectAll().where("order_id", "=", orderId).where("deleted_at", "is", null),
      ["o"],
      "note_id",
      (r) => r.note_id,
      toNote,
    );
    this.listByParents = liveRowsByParent(db, "order_notes", "order_id", "note_id", projection);
  }

  /** Which order the note is under (its orderId: whoever owns that order owns it); undefined when there is no such note. */
  async parentOf(noteId: string): Promise<string | undefined> {
    return (
      await this.deps.store.db
        .selectFrom("order_notes")
        .select("order_id")
        .where("note_id", "=", noteId)
        .executeTakeFirst()
    )?.order_id;
  }

  async add(orderId: string, input: { text: string }): Promise<OrderNote> {
    const at = now();
    const note: OrderNote = { noteId: newId("notes"), orderId, text: input.text, createdAt: at };
    await this.deps.store.db
      .insertInto("order_notes")
      .values({
        note_id: note.noteId,
        order_id: orderId,
        text: note.text,
        version: 1,
        created_at: at,
        updated_at: at,
        deleted_at: null,
      })
      .execute();
    return note;
  }

  async get(noteId: string): Promise<OrderNote> {
    const row = await this.deps.store.db
      .selectFrom("order_notes")
      .selectAll()
      .where("note_id", "=", noteId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (!row) throw new NotFoundError("note", noteId);
    return toNote(row);
  }

  async list(orderId: string, page: PageRequest): Promise<Page<OrderNote>> {
    return this.page(page, orderId);
  }
}

export function createService(deps: Deps): OrderNoteService {
  return new OrderNoteService(deps);
}
