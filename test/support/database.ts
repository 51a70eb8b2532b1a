// A fresh, empty database for one test server: the kit's (twinspec/testing), which every test server uses.
export {
  freshDatabase,
  testDatabaseKind,
  testPostgresUrl,
  type TestDatabase,
} from "twinspec-dev/testing";
