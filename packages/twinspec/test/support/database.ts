// A fresh, empty database for one test server: the test kit's own (src/testing/database.ts), which the package's
// tests share with every application's.
export {
  freshDatabase,
  testDatabaseKind,
  testPostgresUrl,
  type TestDatabase,
} from "../../../twinspec-dev/src/testing/database.js";
