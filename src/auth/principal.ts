// Who is calling: the verified subject and its scopes. Built by the auth layer, read by the domain's guards.
export interface Principal {
  subject: string;
  scopes: ReadonlySet<string>;
}

export const isAdmin = (p: Principal) => p.scopes.has("admin");
