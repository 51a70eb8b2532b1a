// Where a delivery may go. A URL is https: and its host resolves to public addresses only, unless configuration
// allows http: or private addresses (tests allow loopback). The check is made at delivery time on the addresses DNS
// answers, and the connection goes to the address checked (the request's `lookup`), so a name that resolves to a
// public address when checked and a private one when connecting cannot reach inside.
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";

/** What deliveries may reach besides https: URLs on public addresses. */
export interface AddressPolicy {
  /** allow http: URLs (default false) */
  allowHttp?: boolean;
  /** allow private, loopback and link-local addresses (default false) */
  allowPrivate?: boolean;
}

/** Addresses no delivery reaches unless allowed: private, loopback, link-local, shared, multicast, reserved. */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  PRIVATE.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
] as const)
  PRIVATE.addSubnet(net, bits, "ipv6");

/** Why a URL may not be delivered to, before any lookup (undefined: it may, if its addresses are allowed). */
export function urlRefusal(raw: string, policy: AddressPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "is not an absolute URL";
  }
  if (url.protocol !== "https:" && !(policy.allowHttp && url.protocol === "http:"))
    return policy.allowHttp ? "must be http: or https:" : "must be https:";
  if (url.username || url.password) return "must not carry credentials";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !policy.allowPrivate && isPrivate(host)) return "is a private, loopback or link-local address";
  return undefined;
}

const isPrivate = (address: string) => PRIVATE.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");

/** Thrown when the host's addresses are not allowed (the delivery is retried: DNS may change). */
class AddressRefused extends Error {}

/** The checked address of `host`: resolved, every answer allowed, the first one used for the connection. */
export async function checkedAddress(
  host: string,
  policy: AddressPolicy,
): Promise<{ address: string; family: number }> {
  const bare = host.replace(/^\[|\]$/g, "");
  const answers = isIP(bare)
    ? [{ address: bare, family: isIP(bare) }]
    : await dnsLookup(bare, { all: true, verbatim: true });
  if (answers.length === 0) throw new AddressRefused(`${host} has no address`);
  const refused = policy.allowPrivate ? undefined : answers.find((a) => isPrivate(a.address));
  if (refused)
    throw new AddressRefused(`${host} resolves to ${refused.address}, a private, loopback or link-local address`);
  return answers[0];
}

/** A `lookup` for http.request that answers the address already checked, whatever the name. */
export const pinnedLookup =
  (checked: { address: string; family: number }): LookupFunction =>
  (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [checked]);
    else callback(null, checked.address, checked.family);
  };
