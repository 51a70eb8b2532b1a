// Waiting in tests for something that happens in its own time (a job, an event from another instance), bounded.

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every `everyMs` until it holds; fails naming `what` after `ms`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  ms = 10_000,
  everyMs = 20,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
