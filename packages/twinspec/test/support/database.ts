// A fresh, empty database for one test server: the test kit's own (src/testing/database.ts), which the package's
// tests share with every application's.
export { freshDatabase, SCHEMA_PREFIX, testDatabaseKind, testPostgresUrl, type TestDatabase, type TestDatabaseKind } from "../../src/testing/database.js";
