import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { TProcessAuthCallbackResponse } from '../../../contract/api/auth.schema.js';
import type { AppContext } from '../../context.js';
import { oauthCodes, users } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { openSession, signGoogleSignupToken, type GoogleSignupClaims } from './auth.service.js';
import { hashToken, randomToken, signStatement, verifyStatement } from './tokens.js';
import { discardUnconfirmedAccount } from './unconfirmed-account.js';

/**
 * Google sign-in through OpenID Connect (authorization code with PKCE, state and nonce). The browser
 * carries the PKCE verifier, state and nonce in a signed, short-lived, HttpOnly cookie; after the code
 * exchange it gets a one-time code (valid 5 minutes, single use) in the /auth/callback address.
 *
 * The one-time code is bound to the browser that started the sign-in (login CSRF): the start creates
 * a random browser key, carried in the state cookie to the callback, which stores its hash with the
 * code and hands the key on in a second HttpOnly cookie scoped to the redemption call. A code sent to
 * someone else (a link to /auth/callback#access_token=…) cannot be redeemed from their browser.
 */
export const OAUTH_COOKIE = 'vr_oauth';
export const OAUTH_COOKIE_PATH = '/api/auth/google';
export const OAUTH_CODE_COOKIE = 'vr_oauth_code';
export const OAUTH_CODE_COOKIE_PATH = '/api/auth/process-auth-callback';
const OAUTH_STATE_TTL_SECONDS = 600;
export const ONE_TIME_CODE_TTL_MS = 5 * 60_000;

let discovered: { key: string; config: Promise<oidc.Configuration> } | undefined;

function googleConfig(ctx: AppContext): Promise<oidc.Configuration> {
  const google = ctx.config.google;
  if (!google) throw new AppError('invalid_data', { message: 'Google sign-in is not available.', errorKey: 'invalidRequest' });
  const key = `${google.issuer}|${google.clientId}`;
  if (!discovered || discovered.key !== key) {
    const insecure = google.issuer.startsWith('http://');
    const config = oidc
      .discovery(new URL(google.issuer), google.clientId, google.clientSecret, undefined, insecure ? { execute: [oidc.allowInsecureRequests] } : {})
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    discovered = { key, config };
  }
  return discovered.config;
}

export const googleRedirectUri = (ctx: AppContext) => `${ctx.config.appUrl}/api/auth/google/callback`;

/** The provider's authorization address and the cookie holding what the callback must check. */
export async function startGoogleSignin(ctx: AppContext): Promise<{ url: string; cookie: string }> {
  const config = await googleConfig(ctx).catch((error: unknown) => {
    ctx.logger.error({ err: error }, 'Google discovery failed');
    throw new AppError('server_error', { message: 'Google sign-in is unavailable right now. Please try again later.', errorKey: 'unknownAuthError' });
  });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const browserKey = randomToken();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: googleRedirectUri(ctx),
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const cookie = await signStatement(ctx.secrets.jwt, 'oauth_state', { v: verifier, s: state, n: nonce, b: browserKey }, OAUTH_STATE_TTL_SECONDS);
  return { url: url.toString(), cookie };
}

/**
 * The provider's redirect back to us: checks state, nonce and PKCE, exchanges the code, and returns
 * the address of /auth/callback to send the browser to (with a one-time code, or an error) and, with
 * a code, the browser key to set in the redemption cookie.
 */
export async function finishGoogleSignin(
  ctx: AppContext,
  input: { currentUrl: URL; cookie: string | undefined },
): Promise<{ location: string; browserKey?: string }> {
  const fail = (errorKey: string, description: string) => ({
    location: `${ctx.config.appUrl}/auth/callback#${new URLSearchParams({ error: errorKey, error_description: description }).toString()}`,
  });

  const providerError = input.currentUrl.searchParams.get('error');
  if (providerError) {
    return fail(providerError === 'access_denied' ? 'unauthorized' : 'unknownAuthError', 'Google sign-in was cancelled or refused.');
  }
  const stateCookie = input.cookie ? await verifyStatement(ctx.secrets.jwt, 'oauth_state', input.cookie) : undefined;
  if (!stateCookie?.ok) return fail('sessionExpired', 'Your Google sign-in took too long. Please try again.');
  const { v, s, n, b } = stateCookie.claims as { v: string; s: string; n: string; b?: unknown };
  if (typeof b !== 'string' || !b) return fail('sessionExpired', 'Your Google sign-in took too long. Please try again.');

  let claims: oidc.IDToken | undefined;
  try {
    const config = await googleConfig(ctx);
    const tokens = await oidc.authorizationCodeGrant(config, input.currentUrl, {
      pkceCodeVerifier: v,
      expectedState: s,
      expectedNonce: n,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (error) {
    ctx.logger.warn({ err: error }, 'Google code exchange failed');
    return fail('unknownAuthError', 'Google sign-in could not be completed. Please try again.');
  }
  if (!claims || typeof claims.sub !== 'string' || typeof claims.email !== 'string') {
    return fail('unknownAuthError', 'Google did not share your e-mail address.');
  }
  const profile = {
    sub: claims.sub,
    email: claims.email,
    email_verified: claims.email_verified === true,
    firstname: typeof claims.given_name === 'string' ? claims.given_name : '',
    lastname: typeof claims.family_name === 'string' ? claims.family_name : '',
    picture: typeof claims.picture === 'string' ? claims.picture : null,
  };
  const code = randomToken();
  const expiresAt = new Date(Date.now() + ONE_TIME_CODE_TTL_MS);
  await ctx.db.insert(oauthCodes).values({ codeHash: hashToken(code), browserHash: hashToken(b), profile, expiresAt });
  return { location: `${ctx.config.appUrl}/auth/callback#${new URLSearchParams({ access_token: code }).toString()}`, browserKey: b };
}

/**
 * Exchanges the one-time code, from the browser that started the sign-in only: an existing confirmed
 * account (by Google id, or by e-mail when Google verified it) gets a session; a new person gets their
 * profile and a sign-up token for the company step.
 */
export async function processAuthCallback(
  ctx: AppContext,
  input: { accessToken: string; browserKey: string | undefined },
): Promise<TProcessAuthCallbackResponse> {
  if (!input.browserKey) {
    // No key: this browser did not start a Google sign-in (or took too long). Never redeem, so a
    // code someone else obtained cannot sign this browser into their account.
    throw new AppError('unauthorized', {
      message: 'This Google sign-in was not started in this browser, or it took too long. Please sign in with Google again.',
      errorKey: 'sessionExpired',
    });
  }
  const [used] = await ctx.db
    .update(oauthCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(oauthCodes.codeHash, hashToken(input.accessToken)),
        eq(oauthCodes.browserHash, hashToken(input.browserKey)),
        isNull(oauthCodes.usedAt),
        gt(oauthCodes.expiresAt, new Date()),
      ),
    )
    .returning({ profile: oauthCodes.profile });
  if (!used) {
    throw new AppError('unauthorized', { message: 'This sign-in link has expired or was already used. Please sign in again.', errorKey: 'tokenExpired' });
  }
  const profile = used.profile;

  const [bySub] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.googleSub, profile.sub)).limit(1);
  if (bySub) return { isNewUser: false, ...(await openSession(ctx, bySub.id, true)) };

  const providerConflict = () =>
    new AppError('duplicate_record', {
      status: 409,
      message: 'An account with this e-mail already exists. Sign in with your password to continue.',
      errorKey: 'providerConflict',
    });
  const [byEmail] = await ctx.db
    .select({ id: users.id, googleSub: users.googleSub, confirmedAt: users.emailConfirmedAt })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${profile.email})`)
    .limit(1);
  if (byEmail) {
    if (!profile.email_verified || byEmail.googleSub) throw providerConflict();
    if (byEmail.confirmedAt) {
      // Google vouches for this address and its owner already proved it to us: link the Google
      // identity to that account (only while it is still confirmed and unlinked).
      const [linked] = await ctx.db
        .update(users)
        .set({ googleSub: profile.sub, avatarUrl: sql`coalesce(${users.avatarUrl}, ${profile.picture})`, updatedAt: new Date() })
        .where(and(eq(users.id, byEmail.id), isNotNull(users.emailConfirmedAt), isNull(users.googleSub)))
        .returning({ id: users.id });
      if (!linked) throw providerConflict();
      return { isNewUser: false, ...(await openSession(ctx, linked.id, true)) };
    }
    // Nobody ever proved this address: whoever signed up with it may not be its owner (pre-hijack).
    // The owner, now proven by Google, never inherits that account: it goes, password, sessions and
    // company with it, and the owner signs up afresh below.
    const discarded = await ctx.db.transaction((tx) => discardUnconfirmedAccount(tx, profile.email));
    if (discarded) ctx.logger.info({ userId: byEmail.id }, 'unconfirmed account replaced by a verified Google sign-in');
  }

  if (!profile.email_verified) {
    throw new AppError('invalid_data', {
      status: 409,
      message: 'Google has not verified this e-mail address, so it cannot be used to sign up.',
      errorKey: 'providerConflict',
    });
  }
  const claims: GoogleSignupClaims = { ...profile };
  return {
    isNewUser: true,
    user: { sub: profile.sub, email: profile.email, firstname: profile.firstname, lastname: profile.lastname, picture: profile.picture },
    token: await signGoogleSignupToken(ctx, claims),
  };
}
