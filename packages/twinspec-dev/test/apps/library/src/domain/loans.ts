// The loans domain: a member borrows a copy of a book for two weeks (none left: 409) and returns it once (a second
// return: 409). Each change holds the book's row locked, so that two borrowers never take its last copy twice.
import type { Kysely, Selectable } from "kysely";
import type { Database } from "twinspec/schema";
import {
  ConflictError,
  groupBy,
  keysetPager,
  lockRows,
  NotFoundError,
  now,
  transaction,
  type Page,
  type PageRequest,
} from "twinspec";
import { newId } from "../../generated/contract.js";
import type { LoansTable } from "../../generated/database.js";
import type * as Spec from "../../generated/models.js";
import type { Deps } from "../../generated/wiring.js";

/** How long a loan lasts. */
const LOAN_DAYS = 14;

/** One Loan as the domain holds it; GraphQL resolves Loan's fields from it. */
export interface Loan {
  loanId: string;
  memberId: string;
  bookId: string;
  note?: string;
  status: Spec.LoanStatus;
  dueAt: string;
  returnedAt?: string;
  createdAt: string;
}

const toLoan = (r: Selectable<LoansTable>): Loan => ({
  loanId: r.loan_id,
  memberId: r.member_id,
  bookId: r.book_id,
  ...(r.note !== null ? { note: r.note } : {}),
  status: r.status as Spec.LoanStatus,
  dueAt: r.due_at,
  ...(r.returned_at !== null ? { returnedAt: r.returned_at } : {}),
  createdAt: r.created_at,
});

async function liveRow(db: Kysely<Database>, loanId: string): Promise<Selectable<LoansTable>> {
  const row = await db
    .selectFrom("loans")
    .selectAll()
    .where("loan_id", "=", loanId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!row) throw new NotFoundError("loan", loanId);
  return row;
}

export class LoanService {
  private readonly pageOfMember;

  constructor(private readonly deps: Deps) {
    const db = deps.store.db;
    this.pageOfMember = keysetPager(
      db,
      (memberId: string) =>
        db.selectFrom("loans").selectAll().where("member_id", "=", memberId).where("deleted_at", "is", null),
      ["sample"],
      "loan_id",
      (r) => r.loan_id,
      toLoan,
    );
  }

  private get db() {
    return this.deps.store.db;
  }

  /** Who owns loanId (its memberId); undefined when there is no such Loan. */
  async ownerOf(loanId: string): Promise<string | undefined> {
    return (await this.db.selectFrom("loans").select("member_id").where("loan_id", "=", loanId).executeTakeFirst())
      ?.member_id;
  }

  async borrow(memberId: string, input: Spec.LoanInput): Promise<Loan> {
    const member = await this.deps.services.members.get(memberId);
    return transaction(this.db, async (trx) => {
      await lockRows(trx, "books", "book_id", [input.bookId]);
      await this.deps.services.books.lend(trx, input.bookId);
      const at = now();
      const row = {
        loan_id: newId("loans"),
        member_id: member.memberId,
        book_id: input.bookId,
        note: input.note ?? null,
        status: "OUT",
        due_at: new Date(Date.parse(at) + LOAN_DAYS * 86_400_000).toISOString(),
        returned_at: null,
        version: 1,
        created_at: at,
        updated_at: at,
        deleted_at: null,
      };
      await trx.insertInto("loans").values(row).execute();
      return toLoan(row);
    });
  }

  async return(loanId: string): Promise<Loan> {
    return transaction(this.db, async (trx) => {
      await lockRows(trx, "loans", "loan_id", [loanId]);
      const current = await liveRow(trx, loanId);
      if (current.status === "RETURNED")
        throw new ConflictError(`loan ${loanId} was returned already, at ${current.returned_at}`, ["OUT"]);
      await lockRows(trx, "books", "book_id", [current.book_id]);
      await this.deps.services.books.takeBack(trx, current.book_id);
      const at = now();
      const next = { ...current, status: "RETURNED", returned_at: at, version: current.version + 1, updated_at: at };
      await trx
        .updateTable("loans")
        .set({ status: next.status, returned_at: at, version: next.version, updated_at: at })
        .where("loan_id", "=", loanId)
        .execute();
      return toLoan(next);
    });
  }

  async get(loanId: string): Promise<Loan> {
    return toLoan(await liveRow(this.db, loanId));
  }

  /** A member's loans, oldest first, one page at a time (404 for an unknown member). */
  async listOf(memberId: string, page: PageRequest): Promise<Page<Loan>> {
    const member = await this.deps.services.members.get(memberId);
    return this.pageOfMember(page, member.memberId);
  }

  /** The loans of each of many members, oldest first, in one query (Member.loans). */
  async listByParents(memberIds: readonly string[]): Promise<Map<string, Loan[]>> {
    if (memberIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("loans")
      .selectAll()
      .where("member_id", "in", memberIds)
      .where("deleted_at", "is", null)
      .orderBy("created_at")
      .orderBy("loan_id")
      .execute();
    return groupBy(memberIds, rows, (r) => r.member_id, toLoan);
  }
}

export function createService(deps: Deps): LoanService {
  return new LoanService(deps);
}
