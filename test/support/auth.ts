// Tokens for tests: every test server signs with TEST_SECRET; call() and gql() send ADMIN unless told otherwise
// (the kit's, twinspec/testing).
export { ADMIN_TOKEN, TEST_SECRET, token } from "twinspec-dev/testing";
