// Emits generated/client/rest.ts: a typed REST client over openapi-fetch and openapi-typescript's paths.
export function restClient(): string {
  return `import createClient from "openapi-fetch";
import type { paths } from "../openapi.js";

/** Typed REST client over openapi-fetch: paths, parameters, bodies and responses come from openapi.yaml. */
export function createRestClient(options: { baseUrl: string; token?: string; fetch?: typeof fetch }) {
  return createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: options.fetch,
    headers: options.token ? { Authorization: \`Bearer \${options.token}\` } : {},
  });
}
`;
}
