// Keyset pagination over (created_at, id): stable under inserts, opaque to clients.
import { InvalidInputError } from "./errors.js";

export interface PageRequest {
  limit: number;
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export const MAX_PAGE = 100;

export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString("base64url");
}

export function decodeCursor(cursor: string, pointer = "/cursor"): [string, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "string")) return value as [string, string];
  } catch {
    // fall through to the error below
  }
  throw new InvalidInputError([{ pointer, message: "is not a cursor this API issued" }]);
}

export function checkLimit(limit: number, pointer = "/limit"): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
    throw new InvalidInputError([{ pointer, message: `must be an integer from 1 to ${MAX_PAGE}` }]);
  }
  return limit;
}
