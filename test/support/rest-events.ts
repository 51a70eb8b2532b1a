// Reading the REST event stream of a customer's order changes (GET /customers/{customerId}/order-events) as a
// browser's EventSource would: `lastEventId` goes as the Last-Event-ID header; each message lands in `got`.
import { ADMIN_TOKEN } from "./auth.js";
import type { Received } from "./events.js";

export interface StreamMessage {
  id?: string;
  event: string;
  data: string;
}

/** The SSE messages of a text stream's complete blocks; what is left of an incomplete one is returned as `rest`. */
function parseMessages(buffer: string): { messages: StreamMessage[]; rest: string } {
  const messages: StreamMessage[] = [];
  let end: number;
  while ((end = buffer.indexOf("\n\n")) >= 0) {
    const block = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    const message: StreamMessage = { event: "message", data: "" };
    let fields = 0;
    for (const line of block.split("\n")) {
      const colon = line.indexOf(":");
      if (colon <= 0) continue; // a comment (keep-alive)
      const [field, value] = [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, "")];
      fields++;
      if (field === "id") message.id = value;
      else if (field === "event") message.event = value;
      else if (field === "data") message.data += value;
    }
    if (fields > 0) messages.push(message);
  }
  return { messages, rest: buffer };
}

export function restStream(
  url: string,
  customerId: string,
  options: { lastEventId?: string; token?: string | null } = {},
) {
  const got: StreamMessage[] = [];
  const controller = new AbortController();
  const token = options.token === undefined ? ADMIN_TOKEN : options.token;
  let head: Response | undefined;
  const done = (async () => {
    const response = await fetch(`${url}/customers/${customerId}/order-events`, {
      headers: {
        accept: "text/event-stream",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(options.lastEventId ? { "last-event-id": options.lastEventId } : {}),
      },
      signal: controller.signal,
    });
    head = response;
    if (!response.headers.get("content-type")?.startsWith("text/event-stream"))
      return { status: response.status, body: await response.text() };
    let buffer = "";
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body!) {
        const parsed = parseMessages(buffer + decoder.decode(chunk as Uint8Array, { stream: true }));
        buffer = parsed.rest;
        got.push(...parsed.messages);
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
    return { status: response.status, body: "" };
  })();
  return {
    got,
    head: () => head,
    /** the changes received ("orderId status"), each with its id */
    changes: (): Received[] =>
      got
        .filter((m) => m.event === "message" && m.id)
        .map((m) => {
          const c = JSON.parse(m.data) as { orderId: string; status: string };
          return { id: m.id!, change: `${c.orderId} ${c.status}` };
        }),
    done,
    stop: async () => {
      controller.abort();
      await done.catch(() => {});
    },
  };
}
