import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may be sent (issue 32, decision 211): no server-side request forgery. The name is
 * resolved once, every address it resolves to must be public, and the connection is then made to the
 * checked address (pinned: no second lookup), with the name as Host and TLS server name.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
/** Resolves a host name to all its addresses (injectable: tests resolve names without a network). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export interface AddressPolicy {
  /** WEBHOOKS_ALLOW_PRIVATE: loopback, private ranges and http allowed (tests, development; never production). */
  allowPrivate: boolean;
  resolve: Resolver;
}

/** Why an address is refused, in words a person understands; null when it may be used. */
export class RefusedAddress extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedAddress';
  }
}

/**
 * Whether one IP address is public. IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as its IPv4 address;
 * only ipaddr.js's 'unicast' range is public: loopback, private, link-local (cloud metadata),
 * unique-local, multicast, carrier-grade NAT, unspecified, broadcast, reserved, 6to4, Teredo, NAT64 and
 * the documentation and benchmarking ranges are all refused.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'unicast';
}

/** The URL's host without IPv6 brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Checks the form of an endpoint's address (no DNS): https (http only when private addresses are allowed), no credentials. */
export function checkUrlForm(raw: string, policy: Pick<AddressPolicy, 'allowPrivate'>): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedAddress('The address must be a full https:// address.');
  }
  if (url.protocol !== 'https:' && !(policy.allowPrivate && url.protocol === 'http:')) throw new RefusedAddress('The address must start with https://.');
  if (url.username || url.password) throw new RefusedAddress('The address must not contain a user name or password.');
  if (!url.hostname) throw new RefusedAddress('The address must name a host.');
  return url;
}

/**
 * Resolves the URL's host and returns the address to connect to, after checking EVERY address the name
 * resolves to (a name with one private address among public ones is refused: the system could pick it).
 */
export async function resolveEndpoint(url: URL, policy: AddressPolicy): Promise<ResolvedAddress> {
  const host = bareHost(url);
  let addresses: ResolvedAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await policy.resolve(host);
    } catch {
      throw new RefusedAddress(`The name ${host} could not be resolved.`);
    }
    if (!addresses.length) throw new RefusedAddress(`The name ${host} could not be resolved.`);
  }
  if (!policy.allowPrivate) {
    for (const a of addresses) {
      if (!isPublicAddress(a.address)) throw new RefusedAddress('The address points to a private or reserved network. Use a public https address.');
    }
  }
  return addresses[0]!;
}
