// Who is calling: the verified subject and its scopes. Built by the auth layer, read by the guards.
/** Who calls (RestContext.principal, GraphqlContext.principal): a verified token's subject and scopes. */
export interface Principal {
  /** the token's `sub`: the owner id it acts for, or an admin's name */
  subject: string;
  /** the token's scopes (from `scope` and `scp`) */
  scopes: ReadonlySet<string>;
  /** seconds since epoch when the credentials expire */
  expiresAt: number;
}

const ADMIN = "admin";

/**
 * Whether the principal holds the `admin` scope (it then acts for every owner and holds every scope).
 *
 * @param p - the caller
 */
export const isAdmin = (p: Principal) => p.scopes.has(ADMIN);

/**
 * `admin` acts for every owner; any other token only for the owner its `sub` names.
 *
 * @param p - the caller
 * @param ownerId - the owner of what it acts on (`ownerOf(id)`)
 */
export const actsFor = (p: Principal, ownerId: string) => isAdmin(p) || p.subject === ownerId;

/** The scopes of `required` the principal lacks (`admin` holds them all). */
export const missingScopes = (p: Principal, required: readonly string[]) =>
  isAdmin(p) ? [] : required.filter((s) => !p.scopes.has(s));
