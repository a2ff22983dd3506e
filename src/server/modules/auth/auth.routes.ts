import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  REFRESH_TOKEN_HEADER,
  ZConfirmEmailQuery,
  ZForgotPasswordBody,
  ZForgotPasswordResponse,
  ZMeResponse,
  ZRefreshBody,
  ZRefreshResponse,
  ZResendConfirmationBody,
  ZResendConfirmationResponse,
  ZResetPasswordBody,
  ZResetPasswordResponse,
  ZSigninBody,
  ZSigninResponse,
  ZSignoutResponse,
  ZSignupBody,
  ZSignupResponse,
  ZSigninGoogleBody,
  ZSigninGoogleResponse,
  ZProcessAuthCallbackBody,
  ZProcessAuthCallbackResponse,
} from '../../../contract/api/auth.schema.js';
import { API } from '../../../contract/api/paths.js';
import type { AppContext } from '../../context.js';
import { bearerToken, requireAuth } from '../../http/auth-guard.js';
import { byBodyEmail, byIp, limits } from '../../http/rate-limit.js';
import { AppError } from '../../lib/errors.js';
import * as auth from './auth.service.js';
import { SigninThrottle, SigninWait } from './signin-throttle.js';
import {
  finishGoogleSignin,
  OAUTH_CODE_COOKIE,
  OAUTH_CODE_COOKIE_PATH,
  OAUTH_COOKIE,
  OAUTH_COOKIE_PATH,
  ONE_TIME_CODE_TTL_MS,
  processAuthCallback,
  startGoogleSignin,
} from './google.service.js';

function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/**
 * Rate limits of the auth calls: per address, and per e-mail where the call names one. Sign-in has no
 * per-e-mail limit (anyone could use it to lock the owner out): wrong passwords are slowed per address
 * and account instead (signin-throttle.ts). Forgot-password and resend-confirmation send at most one
 * e-mail per account in a cool-down (auth.service.ts), which never refuses the owner.
 */
const WINDOW = '10 minutes';
const LIMITS = {
  signin: { ip: 30 },
  signup: { ip: 10, ipPerDay: 30, target: 5 },
  forgot: { ip: 10 },
  resend: { ip: 10 },
  refresh: { ip: 120 },
  google: { ip: 30 },
  confirm: { ip: 30 },
} as const;

export function authRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const perIp = (name: string, max: number) => ({ name, max, timeWindow: WINDOW, key: byIp });
    const authenticated = requireAuth(ctx);
    const signinThrottle = new SigninThrottle(app.sharedLimits);
    const refreshHeader = (request: FastifyRequest) => {
      const value = request.headers[REFRESH_TOKEN_HEADER];
      return typeof value === 'string' && value ? value : undefined;
    };

    // Sign-up must say when an address has an account (emailExists, spec), so it is a way to test
    // addresses: per client address (10 per 10 minutes and 30 a day: a list cannot be swept from one
    // address, nor from rotating X-Forwarded-For values, see TRUST_PROXY) and per target address from
    // any client (5 an hour: no repeated probing of one address from many). A Google sign-up names no
    // address (it comes from the signed Google statement) and is not counted per target, so flooding
    // an address never blocks its owner's Google sign-up; nor does it touch sign-in or password reset.
    const signupPerIp = [perIp('signup', LIMITS.signup.ip), { ...perIp('signup-day', LIMITS.signup.ipPerDay), timeWindow: '1 day' }];
    const passwordSignupLimits = limits(app, [...signupPerIp, { name: 'signup-target', max: LIMITS.signup.target, timeWindow: '1 hour', key: byBodyEmail }]);
    const googleSignupLimits = limits(app, signupPerIp);
    app.post(
      API.auth.signup.route,
      {
        preHandler: [
          async (request, reply) => ((request.body as { fromGoogle?: boolean }).fromGoogle ? googleSignupLimits : passwordSignupLimits)(request, reply),
        ],
        schema: { body: ZSignupBody, response: { 201: ZSignupResponse } },
      },
      async (request, reply) => reply.status(201).send(await auth.signup(ctx, request.body)),
    );

    app.get(
      API.auth.confirmEmail.route,
      { preHandler: [limits(app, [perIp('confirm', LIMITS.confirm.ip)])], schema: { querystring: ZConfirmEmailQuery } },
      async (request, reply) => {
        const { outcome, email } = await auth.confirmEmail(ctx, request.query.token);
        // The address goes along whatever the outcome: the sign-in form starts filled in after a
        // confirmation, and a new link can be offered after a failed one (decision 160). Whoever holds
        // the link already knows the address it was sent to.
        const params = new URLSearchParams({ confirm: outcome });
        if (email) params.set('email', email);
        return reply.header('cache-control', 'no-store').redirect(`${ctx.config.appUrl}/signin?${params.toString()}`, 303);
      },
    );

    app.post(
      API.auth.resendConfirmation.route,
      {
        preHandler: [limits(app, [perIp('resend', LIMITS.resend.ip)])],
        schema: { body: ZResendConfirmationBody, response: { 200: ZResendConfirmationResponse } },
      },
      async (request) => {
        await auth.resendConfirmation(ctx, request.body);
        return { success: true as const };
      },
    );

    app.post(
      API.auth.signin.route,
      {
        preHandler: [limits(app, [perIp('signin', LIMITS.signin.ip)])],
        schema: { body: ZSigninBody, response: { 200: ZSigninResponse } },
      },
      async (request, reply) => {
        const { email } = request.body;
        try {
          await signinThrottle.begin(request.ip, email);
        } catch (error) {
          if (error instanceof SigninWait) reply.header('retry-after', error.retryAfterSeconds);
          throw error;
        }
        let session: Awaited<ReturnType<typeof auth.signin>>;
        try {
          session = await auth.signin(ctx, request.body);
        } catch (error) {
          const key = error instanceof AppError ? error.errorKey : undefined;
          // A wrong password that cannot be counted is not answered as one: the store's failure (503) is.
          if (key === 'incorrectCredentials') await signinThrottle.passwordWrong(email);
          // Refused after the password proved right.
          else if (key === 'emailUnconfirmed') await signinThrottle.passwordRight(request.ip, email);
          else await signinThrottle.undecided(request.ip, email).catch(() => undefined);
          throw error;
        }
        // The password was right: a store that cannot forget the pair's failures now does not keep the owner out.
        await signinThrottle.passwordRight(request.ip, email).catch((error: unknown) => request.log.warn({ err: error }, 'sign-in throttle not reset'));
        return session;
      },
    );

    app.post(
      API.auth.refresh.route,
      {
        preHandler: [limits(app, [perIp('refresh', LIMITS.refresh.ip)])],
        schema: { body: ZRefreshBody, response: { 200: ZRefreshResponse } },
      },
      async (request) => auth.refresh(ctx, request.body.refresh_token),
    );

    app.post(API.auth.signout.route, { schema: { response: { 200: ZSignoutResponse } } }, async (request) => {
      await auth.signout(ctx, { refreshToken: refreshHeader(request), accessToken: bearerToken(request) });
      return { success: true as const };
    });

    app.get(
      API.auth.me.route,
      { preHandler: [authenticated], schema: { response: { 200: ZMeResponse } } },
      async (request) =>
        auth.me(ctx, { userId: request.auth!.userId, companyId: request.auth!.companyId, role: request.auth!.role, token: bearerToken(request)!, refreshToken: refreshHeader(request) }),
    );

    const secureCookie = ctx.config.appUrl.startsWith('https://') ? '; Secure' : '';
    app.post(
      API.auth.signinGoogle.route,
      {
        preHandler: [limits(app, [perIp('google', LIMITS.google.ip)])],
        schema: { body: ZSigninGoogleBody, response: { 200: ZSigninGoogleResponse } },
      },
      async (_request, reply) => {
        const { url, cookie } = await startGoogleSignin(ctx);
        reply.header(
          'set-cookie',
          `${OAUTH_COOKIE}=${encodeURIComponent(cookie)}; Path=${OAUTH_COOKIE_PATH}; Max-Age=600; HttpOnly; SameSite=Lax${secureCookie}`,
        );
        return { url };
      },
    );

    app.get(API.auth.googleCallback.route, { preHandler: [limits(app, [perIp('google-callback', LIMITS.google.ip)])] }, async (request, reply) => {
      const { location, browserKey } = await finishGoogleSignin(ctx, {
        currentUrl: new URL(request.url, ctx.config.appUrl),
        cookie: readCookie(request, OAUTH_COOKIE),
      });
      const cookies = [`${OAUTH_COOKIE}=; Path=${OAUTH_COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secureCookie}`];
      if (browserKey) {
        // Only this browser may redeem the code (google.service.ts): the key goes to the redemption call alone.
        const maxAge = Math.floor(ONE_TIME_CODE_TTL_MS / 1000);
        cookies.push(`${OAUTH_CODE_COOKIE}=${browserKey}; Path=${OAUTH_CODE_COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secureCookie}`);
      }
      return reply.header('set-cookie', cookies).header('cache-control', 'no-store').redirect(location, 303);
    });

    app.post(
      API.auth.processAuthCallback.route,
      {
        preHandler: [limits(app, [perIp('google', LIMITS.google.ip)])],
        schema: { body: ZProcessAuthCallbackBody, response: { 200: ZProcessAuthCallbackResponse } },
      },
      async (request, reply) => {
        // The key is single-use like the code: gone whatever the outcome.
        reply.header('set-cookie', `${OAUTH_CODE_COOKIE}=; Path=${OAUTH_CODE_COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secureCookie}`);
        return processAuthCallback(ctx, { accessToken: request.body.accessToken, browserKey: readCookie(request, OAUTH_CODE_COOKIE) });
      },
    );

    app.post(
      API.auth.forgotPassword.route,
      {
        preHandler: [limits(app, [perIp('forgot', LIMITS.forgot.ip)])],
        schema: { body: ZForgotPasswordBody, response: { 200: ZForgotPasswordResponse } },
      },
      async (request) => {
        await auth.forgotPassword(ctx, request.body);
        return { success: true as const };
      },
    );

    app.post(
      API.auth.resetPassword.route,
      {
        preHandler: [limits(app, [perIp('reset', LIMITS.forgot.ip)])],
        schema: { body: ZResetPasswordBody, response: { 200: ZResetPasswordResponse } },
      },
      async (request) => {
        await auth.resetPassword(ctx, { token: request.body.access_token, newPassword: request.body.new_password });
        return { success: true as const };
      },
    );
  };
}
