// The members domain: a member joins (a name, and an email if given) and is read back, alone or a page at a time;
// Loan.member reads many at once.
import type { Selectable } from "kysely";
import {
  encodeCursor,
  InvalidInputError,
  keysetPager,
  NotFoundError,
  now,
  type Page,
  type PageRequest,
} from "twinspec";
import { newId } from "../../generated/contract.js";
import type { MembersTable } from "../../generated/database.js";
import type * as Spec from "../../generated/models.js";
import type { Deps } from "../../generated/wiring.js";

/** One Member as the domain holds it; GraphQL resolves Member's fields from it. */
export interface Member {
  memberId: string;
  name: string;
  email?: string;
  createdAt: string;
}

const toMember = (r: Selectable<MembersTable>): Member => ({
  memberId: r.member_id,
  name: r.name,
  ...(r.email !== null ? { email: r.email } : {}),
  createdAt: r.created_at,
});

export class MemberService {
  private readonly page;

  constructor(private readonly deps: Deps) {
    const db = deps.store.db;
    this.page = keysetPager(
      db,
      () => db.selectFrom("members").selectAll().where("deleted_at", "is", null),
      [],
      "member_id",
      (r) => r.member_id,
      toMember,
    );
  }

  private get db() {
    return this.deps.store.db;
  }

  async create(input: Spec.MemberInput): Promise<Member> {
    const at = now();
    const row = {
      member_id: newId("members"),
      name: input.name,
      email: input.email ?? null,
      version: 1,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    };
    await this.db.insertInto("members").values(row).execute();
    return toMember(row);
  }

  async get(memberId: string): Promise<Member> {
    const row = await this.db
      .selectFrom("members")
      .selectAll()
      .where("member_id", "=", memberId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (!row) throw new NotFoundError("member", memberId);
    return toMember(row);
  }

  /** Every member, oldest first, one page at a time. */
  list(page: PageRequest): Promise<Page<Member>> {
    return this.page(page);
  }

  /** The page cursor that continues right after this member (GraphQL's `after`). */
  async cursorAfter(memberId: string): Promise<string> {
    const row = await this.db.selectFrom("members").selectAll().where("member_id", "=", memberId).executeTakeFirst();
    if (!row) throw new InvalidInputError([{ pointer: "/after", message: `no member ${memberId} to continue after` }]);
    return encodeCursor(row.created_at, row.member_id);
  }

  /** The live Member instances among many ids, in one query, in any order (missing ones left out). */
  async getMany(ids: readonly string[]): Promise<Member[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom("members")
      .selectAll()
      .where("member_id", "in", ids)
      .where("deleted_at", "is", null)
      .execute();
    return rows.map(toMember);
  }
}

export function createService(deps: Deps): MemberService {
  return new MemberService(deps);
}
