// Who is calling: the verified subject and its scopes. Built by the auth layer, read by the guards.
export interface Principal {
  subject: string;
  scopes: ReadonlySet<string>;
  /** seconds since epoch when the credentials expire */
  expiresAt: number;
}

const ADMIN = "admin";

export const isAdmin = (p: Principal) => p.scopes.has(ADMIN);

/** `admin` acts for every owner; any other token only for the owner its `sub` names. */
export const actsFor = (p: Principal, ownerId: string) => isAdmin(p) || p.subject === ownerId;

/** The scopes of `required` the principal lacks (`admin` holds them all). */
export const missingScopes = (p: Principal, required: readonly string[]) => (isAdmin(p) ? [] : required.filter((s) => !p.scopes.has(s)));
