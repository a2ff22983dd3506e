import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

export interface StandInAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name: string;
  family_name: string;
  picture?: string;
}

/**
 * A real OpenID Connect provider (oidc-provider) on loopback standing in for Google: authorization
 * code with PKCE, ID tokens carrying the profile claims as Google's do, and a login step that signs in
 * whichever account the test chose with `signInAs` and grants consent at once.
 */
export async function startOidcStandIn(options: { clientId: string; clientSecret: string; redirectUris: string[] }) {
  let next: StandInAccount | undefined;
  const accounts = new Map<string, StandInAccount>();

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const configuration: Configuration = {
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'stand-in', alg: 'RS256', use: 'sig' }] as NonNullable<Configuration['jwks']>['keys'] },
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'picture'],
    },
    scopes: ['openid', 'email', 'profile'],
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['stand-in-cookie-key'] },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ ...account }) };
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.on('server_error', () => undefined);

  const callback = provider.callback();
  server.on('request', (req, res) => {
    const match = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (!match) {
      callback(req, res);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        const account = next;
        if (!account) throw new Error('signInAs() was not called before the sign-in');
        accounts.set(account.sub, account);
        const clientId = String(details.params.client_id);
        const grant = new provider.Grant({ accountId: account.sub, clientId });
        grant.addOIDCScope('openid email profile');
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId: account.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
      } catch (error) {
        res.statusCode = 500;
        res.end(String(error));
      }
    })();
  });

  return {
    issuer,
    signInAs(account: StandInAccount) {
      next = account;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Follows redirects like a browser would, keeping cookies per host, until `stopAt` matches. */
export async function followRedirects(start: string, stopAt: (url: string) => boolean, jar = new Map<string, string[]>()): Promise<string> {
  let url = start;
  for (let i = 0; i < 20; i++) {
    if (stopAt(url)) return url;
    const host = new URL(url).host;
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: (jar.get(host) ?? []).join('; ') } });
    for (const set of res.headers.getSetCookie()) {
      const pair = set.split(';')[0] ?? '';
      const name = pair.split('=')[0];
      jar.set(host, [...(jar.get(host) ?? []).filter((c) => !c.startsWith(`${name}=`)), pair]);
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`no redirect from ${url} (${res.status}): ${await res.text()}`);
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects');
}
