// Tokens for tests: every test server of the kit signs with TEST_SECRET; call() and gql() send ADMIN_TOKEN (subject
// "test-admin", scope admin) unless told otherwise.
import { signToken } from "twinspec/internals";

/** The AUTH_SECRET every test server of the kit verifies tokens with. */
export const TEST_SECRET = "twinspec-test-secret-0123456789abcdef";
/** The subject of ADMIN_TOKEN ("test-admin"). */
export const ADMIN_SUBJECT = "test-admin";

/**
 * A token signed with TEST_SECRET, for a test server of the kit.
 *
 * @param sub - its subject: the owner id it acts for, or an admin's name
 * @param scope - its scopes, space-separated ("admin" acts for every owner)
 * @param ttlSeconds - its lifetime in seconds (default 3600)
 * @param notBeforeSeconds - not valid until this many seconds from now; default valid at once
 */
export const token = (sub: string, scope: string, ttlSeconds = 3600, notBeforeSeconds?: number) =>
  signToken(TEST_SECRET, { sub, scope, ttlSeconds, notBeforeSeconds });

/** A token of ADMIN_SUBJECT with the scope admin (valid an hour from when the module loads): what call() and gql() send by default. */
export const ADMIN_TOKEN = await token(ADMIN_SUBJECT, "admin");
