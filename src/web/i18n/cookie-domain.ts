/**
 * The Domain attribute of the language cookie: the current host name without a leading 'www.',
 * so the preference is shared by the apex and its subdomains (spec: "domain without a leading www").
 * Browsers reject Domain=localhost and IP addresses, so for those (and single-label hosts) the
 * attribute is left out and the cookie stays host-only.
 */
export function cookieDomainFor(hostname: string): string | undefined {
  const host = hostname.trim().toLowerCase().replace(/\.$/, '');
  if (!host || !host.includes('.')) return undefined; // localhost, intranet names
  if (host === 'localhost' || host.endsWith('.localhost')) return undefined;
  if (host.includes(':') || host.startsWith('[')) return undefined; // IPv6
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return undefined; // IPv4
  const domain = host.startsWith('www.') ? host.slice(4) : host;
  return domain.includes('.') ? domain : undefined;
}
