// Opaque, URL-safe identifiers with a readable prefix per resource.
import { randomBytes } from "node:crypto";

export const newId = (prefix: "cus" | "ord" | "crt" | "job") => `${prefix}_${randomBytes(12).toString("base64url")}`;

export const now = () => new Date().toISOString();
