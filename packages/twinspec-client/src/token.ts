// The bearer token both clients send: a string, or a function giving the current one (asked for every request and
// connection, so a refreshed token is used at once).

export type Token = string | (() => string | undefined | Promise<string | undefined>);

/** The Authorization header's value for `token` now, or undefined without one. */
export async function bearer(token: Token | undefined): Promise<string | undefined> {
  const value = typeof token === "function" ? await token() : token;
  return value ? `Bearer ${value}` : undefined;
}
