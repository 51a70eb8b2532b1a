// The REST event streams of a generated SDK (operations answering 200 text/event-stream): each message as it comes,
// with its event id; when the connection drops or the server ends the stream (a reader too slow is ended with
// EVENTS_OVERFLOW and its last id), it reconnects with `Last-Event-ID` set to the last id received, so every event
// arrives once and in order. An answer other than 200 (401, 403, 404, 410 for an id older than the server keeps)
// ends the iteration with a RestError: never a silent gap.
import { RestError } from "./error.js";
import { outcomeOf } from "./request.js";
import { sleep } from "./retry.js";
import { sseParser, type SseMessage } from "./sse.js";
import type { EventsOptions, OperationSpec, StreamEvent } from "./types.js";

/** Opens the stream once: `lastEventId` as Last-Event-ID when set. */
export type Connect = (lastEventId: string | undefined, signal: AbortSignal) => Promise<Response>;

const RECONNECT_MS = 1000;
const MAX_FAILURES = 5;

export async function* readEvents<T>(
  connect: Connect,
  spec: OperationSpec,
  options: EventsOptions = {},
): AsyncGenerator<StreamEvent<T>, void, undefined> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  options.signal?.addEventListener("abort", stop, { once: true });
  let lastEventId = options.lastEventId;
  let delay = options.reconnectDelay ?? RECONNECT_MS;
  let failures = 0;
  try {
    for (;;) {
      let response: Response | undefined;
      try {
        response = await connect(lastEventId, controller.signal);
      } catch (error) {
        if (controller.signal.aborted || ++failures > (options.maxReconnects ?? MAX_FAILURES)) throw error;
      }
      if (response) {
        if (response.status !== 200 || !response.body) throw new RestError(await outcomeOf(response, spec));
        failures = 0;
        const queue: SseMessage[] = [];
        const feed = sseParser(
          (m) => queue.push(m),
          (ms) => (delay = ms),
        );
        const decoder = new TextDecoder();
        try {
          for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
            feed(decoder.decode(chunk, { stream: true }));
            for (const message of queue.splice(0)) {
              if (message.event === "error") break; // the server ends the stream after it: resumed below
              if (message.id !== undefined) lastEventId = message.id;
              yield {
                ...(message.id === undefined ? {} : { id: message.id }),
                event: message.event,
                data: JSON.parse(message.data) as T,
              };
            }
          }
        } catch (error) {
          if (controller.signal.aborted) return;
          if (++failures > (options.maxReconnects ?? MAX_FAILURES)) throw error;
        }
      }
      if (options.reconnect === false) return;
      try {
        await sleep(delay, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) return;
        throw error;
      }
    }
  } finally {
    options.signal?.removeEventListener("abort", stop);
    controller.abort();
  }
}
