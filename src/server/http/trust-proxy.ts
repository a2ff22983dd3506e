import type { TrustProxy } from '../config.js';

/**
 * Fastify's `trustProxy` for TRUST_PROXY. A hop count is given as a function: Fastify 5.12 treats a
 * number as 'trust no one' (a number cannot check the immediate peer, so it fails closed). With `n` hops the socket's peer and the n − 1 proxies
 * before it are believed, so the client address is the n-th entry of X-Forwarded-For from the right:
 * whatever a client writes further left is ignored. A list is handed to proxy-addr as it is.
 */
export function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) return false;
  if ('hops' in trust) {
    const hops = trust.hops;
    return (_address, hop) => hop < hops;
  }
  return trust.proxies;
}
