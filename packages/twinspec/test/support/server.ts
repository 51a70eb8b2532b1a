// A real server for the package's tests: the test kit's (src/testing/server.ts: buildApp on an ephemeral 127.0.0.1 port
// over a fresh database, with faults, limits and rate limits as options), serving the fixture application; and the
// kit's clients.
import { call } from "../../../twinspec-dev/src/testing/client.js";
import {
  startServer as startKitServer,
  type TestServer,
  type TestServerOptions,
} from "../../../twinspec-dev/src/testing/server.js";
import { definition } from "../fixture/generated/wiring.js";

export { call, gql } from "../../../twinspec-dev/src/testing/client.js";
export type { TestServer, TestServerOptions } from "../../../twinspec-dev/src/testing/server.js";

export const startServer = (options: TestServerOptions = {}): Promise<TestServer> =>
  startKitServer(definition, options);

export const ada = { name: "Ada Lovelace" };

/** A new author (admin), and a note it wrote. */
export async function newAuthor(base: string, name = "Ada Lovelace"): Promise<{ authorId: string }> {
  const res = await call(`${base}/authors`, { method: "POST", json: { name } });
  if (res.status !== 201) throw new Error(`createAuthor: ${res.status} ${res.text}`);
  return res.json;
}

export async function newNote(
  base: string,
  authorId: string,
  note = { title: "Groceries", body: "Milk" },
): Promise<{ noteId: string }> {
  const res = await call(`${base}/authors/${authorId}/notes`, { method: "POST", json: note });
  if (res.status !== 201) throw new Error(`writeNote: ${res.status} ${res.text}`);
  return res.json;
}

/** An author with `notes` notes, made through the domain services. */
export async function seedAuthor(s: TestServer, n: number, { notes = 0 } = {}) {
  const { authors, notes: noteService } = s.app.services;
  const author = await authors.create({ name: `Author ${n}` });
  const written = [];
  for (let i = 0; i < notes; i++)
    written.push(await noteService.create(author.authorId, { title: `Note ${i}`, body: "text" }));
  return { ...author, notes: written as { noteId: string }[] };
}
