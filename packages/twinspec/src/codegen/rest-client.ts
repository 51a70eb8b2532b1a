// Emits generated/client/rest.ts: a typed REST client over openapi-fetch and openapi-typescript's paths, and
// Outcome/outcome(), which turn a result into one member per declared status so that `status` narrows `body`.
export function restClient(): string {
  return `import createClient from "openapi-fetch";
import type { operations, paths } from "../openapi.js";

/** Typed REST client over openapi-fetch: paths, parameters, bodies and responses come from openapi.yaml. */
export function createRestClient(options: { baseUrl: string; token?: string; fetch?: typeof fetch }) {
  return createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: options.fetch,
    headers: options.token ? { Authorization: \`Bearer \${options.token}\` } : {},
  });
}

type Responses<K extends keyof operations> = operations[K]["responses"];
type BodyOf<R> = R extends { content: infer C } ? C[keyof C] : undefined;

/** One member per status openapi.yaml declares for the operation: testing \`status\` narrows \`body\`. */
export type Outcome<K extends keyof operations> = {
  [S in keyof Responses<K>]: { status: S; body: BodyOf<Responses<K>[S]>; response: Response };
}[keyof Responses<K>];

/** \`outcome("getBook", await api.GET("/books/{bookId}", …))\`: switch on status, read a typed body. */
export function outcome<K extends keyof operations>(
  _operationId: K,
  result: { data?: Outcome<K>["body"]; error?: Outcome<K>["body"]; response: Response },
): Outcome<K> {
  return { status: result.response.status, body: result.data ?? result.error, response: result.response } as Outcome<K>;
}
`;
}
