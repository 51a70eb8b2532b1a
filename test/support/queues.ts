// Stores and job queues opened by a test on a fresh database (two stores on PostgreSQL act as two instances),
// all closed and the database dropped after each test.
import { openStore, type Store } from "../../packages/twinspec/src/store/database.js";
import type { JobQueue } from "../../packages/twinspec/src/store/job-queue.js";
import { freshDatabase, type TestDatabase } from "./database.js";

export function storesPerTest() {
  let database: TestDatabase;
  const stores: Store[] = [];
  const queues: JobQueue[] = [];
  beforeEach(async () => {
    database = await freshDatabase();
  });
  afterEach(async () => {
    // This test's database, held now: should this hook outlast its timeout, the next test's beforeEach replaces
    // `database`, and the drop below must not take that one.
    const mine = database;
    await Promise.all(queues.splice(0).map((q) => q.stop()));
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await mine.drop();
  });
  return {
    /** a store on this test's database; closed after the test */
    open: async () => {
      const store = await openStore(database.url);
      stores.push(store);
      return store;
    },
    /** queues to stop after the test */
    queues,
  };
}
