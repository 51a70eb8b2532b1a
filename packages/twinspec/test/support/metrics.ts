// Reading /metrics in tests.
import { call, type TestServer } from "./server.js";

/** One sample of a Prometheus metric (without labels, or with the given label text). */
export async function metric(s: TestServer, name: string, labels = ""): Promise<number> {
  const { text } = await call(`${s.url}/metrics`);
  const line = text.split("\n").find((l) => l.startsWith(labels ? `${name}{${labels}}` : `${name} `));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}
