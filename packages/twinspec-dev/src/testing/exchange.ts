// The last exchange of a test of the kit: the request call() or gql() sent last, and its answer (client.ts records
// it), which a failure shows when its message does not (pending.ts).

// On globalThis: a spec file may load this module through require() and another through import().
const shared = globalThis as { __twinspecLastExchange?: { line?: string } };
/**
 * The last request a test of the kit sent with call() or gql(), and its answer, in a line ("POST /books {…} → 409
 * {…}"): what a failure of the kit's tests shows as the request that shows it (pending.ts), when its message does not.
 */
export const lastExchange = (shared.__twinspecLastExchange ??= {});

/** A request and its answer in one line, each body cut short. */
export function exchangeLine(method: string, url: string, body: unknown, status: number, answer: string): string {
  const sent = typeof body === "string" && body ? ` ${body.slice(0, 300)}` : "";
  return `${method} ${url}${sent} → ${status} ${answer.slice(0, 300)}`;
}
