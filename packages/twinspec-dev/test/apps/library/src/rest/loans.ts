// REST handlers for the loans operations of openapi.yaml: request → domain (src/domain/loans.ts) → response.
import type { HandlersByTag } from "../../generated/rest.js";
import type { components } from "../../generated/openapi.js";
import { location } from "../../generated/contract.js";
import { pageLink } from "twinspec";
import type { Loan } from "../domain/loans.js";

const loanBody = (l: Loan): components["schemas"]["Loan"] => ({
  loanId: l.loanId,
  memberId: l.memberId,
  bookId: l.bookId,
  ...(l.note !== undefined ? { note: l.note } : {}),
  status: l.status,
  dueAt: l.dueAt,
  ...(l.returnedAt !== undefined ? { returnedAt: l.returnedAt } : {}),
  createdAt: l.createdAt,
});

export const handlers: HandlersByTag["loans"] = {
  async listMemberLoans(req, { services }) {
    const { memberId } = req.params;
    const page = await services.loans.listOf(memberId, { limit: req.query.limit, cursor: req.query.cursor });
    return {
      status: 200,
      body: { items: page.items.map(loanBody), nextCursor: page.nextCursor },
      headers: pageLink(`/members/${memberId}/loans`, req.query, page),
    };
  },
  async borrowBook(req, { services }) {
    const l = await services.loans.borrow(req.params.memberId, req.body);
    return { status: 201, body: loanBody(l), headers: { Location: location("loans", l.loanId) } };
  },
  async getLoan(req, { services }) {
    return { status: 200, body: loanBody(await services.loans.get(req.params.loanId)) };
  },
  async returnLoan(req, { services }) {
    return { status: 200, body: loanBody(await services.loans.return(req.params.loanId)) };
  },
};
