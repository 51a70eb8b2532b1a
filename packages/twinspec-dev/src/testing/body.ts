// A test's reading of an answer's body. An event stream (text/event-stream) never ends by itself: what is read of it
// is its head (the first chunk the server sent), then the connection is closed, which ends its subscription.
const EVENT_STREAM = /^text\/event-stream\b/;

export async function responseText(res: Response): Promise<string> {
  if (!res.body || !EVENT_STREAM.test(res.headers.get("content-type") ?? "")) return res.text();
  const reader = res.body.getReader();
  try {
    const { value } = await reader.read();
    return value ? new TextDecoder().decode(value) : "";
  } finally {
    await reader.cancel();
  }
}
