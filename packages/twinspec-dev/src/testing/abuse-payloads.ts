// What the abuse walk sends (abuse-walk.ts), built from an application's specs: the attacks of Schemathesis' and
// GraphQL Armor's lists that cost a server more than their size says — a multipart body cut off mid-part, JSON
// nested far deeper than any schema, GraphQL documents that fan out, flood aliases, directives or tokens.
import type { OperationSpec } from "twinspec/internals";

/** How deep the nested JSON bodies and variables go (a server should refuse long before). */
export const DEEP = 5_000;
/** Over-long URLs and headers: far past any limit a server sets. */
export const LONG = 100 * 1024;

/** Arrays nested `depth` deep, as JSON text: [[[…]]]. */
export const nestedArrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** Objects nested `depth` deep, as JSON text: {"a":{"a":…{}}}. */
export const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}{}${"}".repeat(depth)}`;

/** The operation's first file field (multipart/form-data), else its first field, else "file". */
export function firstFileField(op: OperationSpec): string {
  const fields = Object.entries(op.body?.multipart ?? {});
  return (fields.find(([, f]) => f.type === "file" || f.type === "files") ?? fields[0])?.[0] ?? "file";
}

/** A multipart body cut off in its first part: a part header and a few bytes of a PNG, and no closing boundary. */
export function truncatedMultipart(field: string): { type: string; body: Buffer } {
  const boundary = "twinspecabuse";
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([Buffer.from(head, "latin1"), Buffer.from([0x89, 0x50, 0x4e, 0x47])]),
  };
}

/** The sample body as JSON text with bytes that are not UTF-8 (a truncated sequence) inside its first string value. */
export function invalidUtf8(sample: Record<string, unknown>): Buffer {
  const key = Object.keys(sample).find((k) => typeof sample[k] === "string") ?? Object.keys(sample)[0];
  const [before, after] = JSON.stringify({ ...sample, [key]: "\u0000abuse" }).split('"\\u0000abuse"');
  return Buffer.concat([Buffer.from(`${before}"`), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(`"${after}`)]);
}

/** The sample body (an object) with its first property written twice: once as sent, once with another value. */
export function duplicateKey(sample: Record<string, unknown>): string {
  const [key] = Object.keys(sample);
  return `{${JSON.stringify(key)}:${JSON.stringify(sample[key])},${JSON.stringify(sample).slice(1)}`;
}

export interface GraphqlAttack {
  /** how the attack is named in the test's title */
  name: string;
  query: string;
  /** the variables as JSON text (too deep for JSON.stringify to be worth it) */
  variables?: string;
  /** answering it is fine too, in time: its harm is the time it takes (else it must be refused with a code) */
  mayAnswer?: boolean;
}

/**
 * The document attacks on a schema whose query type is `query`: each costs the server far more to parse, validate or
 * execute than it costs the client to send. `getDepth` is the nesting of the variables over GET, where the URL limit
 * would otherwise refuse them before anything parses them.
 */
export function graphqlAttacks(query: string, depth = DEEP): GraphqlAttack[] {
  const fragments = Array.from(
    { length: 30 },
    (_, i) => `fragment F${i} on ${query} { __typename${i < 29 ? ` ...F${i + 1} ...F${i + 1}` : ""} }`,
  );
  const directives = Array.from({ length: 300 }, (_, i) => (i % 2 ? "@include(if: true)" : `@abuse${i}`)).join(" ");
  return [
    {
      name: "a fragment fan-out (30 fragments, each spreading the next twice)",
      query: `query { ...F0 }\n${fragments.join("\n")}`,
      mayAnswer: true,
    },
    {
      name: "an alias flood (2,000 aliases of __typename)",
      query: `query { ${Array.from({ length: 2_000 }, (_, i) => `a${i}: __typename`).join(" ")} }`,
    },
    { name: "a directive flood (300 directives on __typename)", query: `query { __typename ${directives} }` },
    { name: "a token flood (20,000 tokens)", query: `query { ${"__typename ".repeat(20_000)}}` },
    {
      name: `variables nested ${depth.toLocaleString("en")} deep`,
      query: "query Abuse($v: Boolean) { __typename }",
      variables: `{"v":${nestedArrays(depth)}}`,
    },
  ];
}
