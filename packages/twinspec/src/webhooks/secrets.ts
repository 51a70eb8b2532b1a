// Endpoint signing secrets at rest: HMAC signing needs the secret itself, so it cannot be hashed; it is stored
// encrypted (AES-256-GCM, node:crypto) with a key derived from the server's secret, so a copy of the database alone
// signs nothing. A new secret is Standard Webhooks' `whsec_` + 24 random bytes in base64, shown once.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** One signing secret: the newest has no end; a rotated-out one signs until `until` (ms since the epoch). */
export interface SigningSecret {
  secret: string;
  until?: number;
}

/** A fresh secret in Standard Webhooks' format. */
export const newSecret = (): string => `whsec_${randomBytes(24).toString("base64")}`;

/** Encrypts and decrypts secrets with a key derived from `serverSecret`. */
export function secretBox(serverSecret: string): {
  seal(secrets: SigningSecret[]): string;
  open(sealed: string): SigningSecret[];
} {
  const key = Buffer.from(hkdfSync("sha256", serverSecret, "twinspec", "webhook endpoint secrets", 32));
  return {
    seal(secrets) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(secrets), "utf8"), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64")).join(".");
    },
    open(sealed) {
      const [iv, tag, body] = sealed.split(".").map((p) => Buffer.from(p, "base64"));
      const decipher = createDecipheriv("aes-256-gcm", key, iv);
      decipher.setAuthTag(tag);
      return JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8")) as SigningSecret[];
    },
  };
}
