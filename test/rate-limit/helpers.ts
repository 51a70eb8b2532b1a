// What the root suites' rate-limit tests (instances) share with one another: waiting for a quiet moment in the hour's
// window. The package's rate-limit tests have their own helpers; the kit (twinspec/testing) has the rest.

/** Waits while the current hour ends in less than `seconds`, so a test's counts all fall in one window. */
export async function clearOfWindowEnd(seconds = 30, windowSeconds = 3600) {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (left < seconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}
