// Server-Sent Events much as the HTML standard reads them (§9.2.6), for the REST event streams: lines of `field: value`,
// a blank line ending each message; comments (`:`) and unknown fields are skipped, `retry:` sets the reconnection
// delay. A small parser of our own: the format is a dozen lines, and a dependency would only wrap the same loop.

export interface SseMessage {
  /** the message's `id:` (the event id to resume after), when it has one */
  id?: string;
  /** `event:` ("message" when none) */
  event: string;
  data: string;
}

/** Feeds text as it arrives; calls `onMessage` for each complete message and `onRetry` for each `retry:`. */
export function sseParser(onMessage: (message: SseMessage) => void, onRetry: (ms: number) => void = () => {}) {
  let buffer = "";
  let message: { id?: string; event?: string; data?: string[] } = {};
  const line = (text: string) => {
    if (text === "") {
      if (message.data)
        onMessage({
          ...(message.id === undefined ? {} : { id: message.id }),
          event: message.event || "message",
          data: message.data.join("\n"),
        });
      message = {};
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? "" : text.slice(colon + 1).replace(/^ /, "");
    if (field === "data") (message.data ??= []).push(value);
    else if (field === "event") message.event = value;
    else if (field === "id" && !value.includes("\0")) message.id = value;
    else if (field === "retry" && /^\d+$/.test(value)) onRetry(Number(value));
  };
  return (text: string) => {
    buffer += text;
    // Lines end with \n or \r\n (a lone \r, which no server of ours sends, is not read as an end).
    const lines = buffer.split(/\r?\n/);
    buffer = lines.pop()!;
    for (const l of lines) line(l);
  };
}
