// Tokens for tests: every test server signs with TEST_SECRET; call() and gql() send ADMIN unless told otherwise.
import { signToken } from "../../src/auth/tokens.js";

export const TEST_SECRET = "twinspec-test-secret-0123456789abcdef";

export const token = (sub: string, scope: string, ttlSeconds = 3600, notBeforeSeconds?: number) =>
  signToken(TEST_SECRET, { sub, scope, ttlSeconds, notBeforeSeconds });

export const ADMIN_TOKEN = await token("test-admin", "admin");
