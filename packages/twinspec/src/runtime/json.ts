// JSON text from a client, parsed as RFC 8259 asks of an interoperable document: members of one object have unique
// names, and the nesting is bounded (JSON.stringify, the validators and every recursive reader of a value meet the
// stack's end long before JSON.parse does); no string holds U+0000, which PostgreSQL's text cannot store (text.ts). Used for every JSON the server reads: REST bodies, parameters and
// multipart parts, GraphQL bodies and variables.

import { NUL, NUL_REFUSED } from "./text.js";

/** How deep arrays and objects may nest in a client's JSON (the outermost value is level 1). */
export const MAX_JSON_DEPTH = 64;

/** What is wrong with a JSON text the server refuses, said so that the client can fix it. */
export class JsonProblem extends Error {
  constructor(
    message: string,
    /** "syntax", "depth" (past `limit`), "duplicate" (`key` twice in one object) or "nul" (a string holding U+0000) */
    readonly reason: "syntax" | "depth" | "duplicate" | "nul",
    readonly limit?: number,
    readonly key?: string,
  ) {
    super(message);
  }
}

/** `text` parsed, or a JsonProblem: not JSON, nested past `maxDepth`, an object naming a member twice, or U+0000 in a string. */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JsonProblem(`not valid JSON: ${(error as Error).message}`, "syntax");
  }
  // A scalar has no members and no depth.
  if (typeof value === "object" && value !== null) checkShape(text, maxDepth);
  if (hasNulEscape(text)) throw new JsonProblem(`JSON with ${NUL} in a string (\\u0000): ${NUL_REFUSED}`, "nul");
  return value;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/**
 * One pass over text JSON.parse accepted: the depth of each container, and each object's member names. An object's
 * names are kept only from its second member on (most objects of a body are small), as the text of the name unless
 * it has an escape.
 */
function checkShape(text: string, maxDepth: number): void {
  /** per open container: undefined for an array, else the names seen so far */
  const open: (Set<string> | string | null | undefined)[] = [];
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (expectName) {
        const raw = text.slice(i + 1, end);
        const name = raw.includes("\\") ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        const top = open.length - 1;
        const seen = open[top];
        if (seen === null) open[top] = name;
        else if (typeof seen === "string") {
          if (seen === name) duplicate(name);
          open[top] = new Set([seen, name]);
        } else if (seen) {
          if (seen.has(name)) duplicate(name);
          seen.add(name);
        }
        expectName = false;
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (open.length === maxDepth) {
        throw new JsonProblem(
          `nested more than ${maxDepth} levels deep; send at most ${maxDepth} levels of arrays and objects`,
          "depth",
          maxDepth,
        );
      }
      open.push(c === OPEN_OBJECT ? null : undefined);
      expectName = c === OPEN_OBJECT;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      open.pop();
      expectName = false;
    } else if (c === COMMA) {
      expectName = open.length > 0 && open[open.length - 1] !== undefined;
    }
  }
}

/** Whether JSON text JSON.parse accepted escapes U+0000 (a backslash starting `\\u0000`, not one escaped itself). */
function hasNulEscape(text: string): boolean {
  for (let at = text.indexOf("\\u0000"); at >= 0; at = text.indexOf("\\u0000", at + 1)) {
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return true;
  }
  return false;
}

/** The index of the quote that ends the string starting at `start`. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  // A quote after an odd number of backslashes is escaped.
  for (;;) {
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

function duplicate(name: string): never {
  throw new JsonProblem(
    `an object names the member ${JSON.stringify(name)} twice; send each member once`,
    "duplicate",
    undefined,
    name,
  );
}
