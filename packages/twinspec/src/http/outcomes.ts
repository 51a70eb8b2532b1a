// Domain outcomes → REST responses, through the one error table (src/error-table.ts), for every operation alike:
// handlers return their success and throw everything else. Invalid input is placed in the part of the request its
// pointer names (a path or query parameter, else the body); a moved resource answers 301 with the URL the request
// would have if it named where the resource lives now.
import { DomainError, InvalidInputError, MovedError, ConflictError, UnprocessableError } from "../domain/errors.js";
import { ERRORS } from "../error-table.js";
import { problemOf } from "../runtime/problems.js";
import type { HandlerResponse, OperationCall } from "../runtime/index.js";

export function domainOutcome(error: unknown, { operation, pathParams }: OperationCall): HandlerResponse | undefined {
  if (!(error instanceof DomainError)) return undefined;
  const { status } = ERRORS[error.kind];
  const body = problemOf(error.kind, error.message);
  if (error instanceof InvalidInputError || error instanceof UnprocessableError) {
    body.errors = error.errors.map((e) => {
      const first = decodeURIComponent(e.pointer.split("/")[1] ?? "");
      const param = operation.parameters.find((p) => p.name === first && (p.in === "path" || p.in === "query"));
      return { in: param?.in ?? "body", ...e };
    });
  }
  if (error instanceof ConflictError && error.allowed) body.allowed = error.allowed;
  if (error instanceof MovedError) {
    const location = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(pathParams[name] === error.id ? error.to : pathParams[name]),
    );
    return { status, body: { ...body, detail: `${error.message}; see ${location}` }, headers: { Location: location } };
  }
  return { status, body };
}
