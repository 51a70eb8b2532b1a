// Tokens for tests: every test server of the kit signs with TEST_SECRET; call() and gql() send ADMIN_TOKEN (subject
// "test-admin", scope admin) unless told otherwise.
import { signToken } from "twinspec/internals";

export const TEST_SECRET = "twinspec-test-secret-0123456789abcdef";
export const ADMIN_SUBJECT = "test-admin";

export const token = (sub: string, scope: string, ttlSeconds = 3600, notBeforeSeconds?: number) => signToken(TEST_SECRET, { sub, scope, ttlSeconds, notBeforeSeconds });

export const ADMIN_TOKEN = await token(ADMIN_SUBJECT, "admin");
