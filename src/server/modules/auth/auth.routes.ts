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
import * as auth from './auth.service.js';
import { finishGoogleSignin, OAUTH_COOKIE, OAUTH_COOKIE_PATH, processAuthCallback, startGoogleSignin } from './google.service.js';

function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** Rate limits of the auth calls: per address, and per e-mail where the call names one. */
const WINDOW = '10 minutes';
const LIMITS = {
  signin: { ip: 30, email: 10 },
  signup: { ip: 10, email: 5 },
  forgot: { ip: 10, email: 3 },
  resend: { ip: 10, email: 3 },
  refresh: { ip: 120 },
  google: { ip: 30 },
  confirm: { ip: 30 },
} as const;

export function authRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const perIp = (name: string, max: number) => ({ name, max, timeWindow: WINDOW, key: byIp });
    const perEmail = (name: string, max: number) => ({ name, max, timeWindow: WINDOW, key: byBodyEmail });
    const authenticated = requireAuth(ctx.secrets.jwt);
    const refreshHeader = (request: FastifyRequest) => {
      const value = request.headers[REFRESH_TOKEN_HEADER];
      return typeof value === 'string' && value ? value : undefined;
    };

    app.post(
      API.auth.signup.route,
      {
        preHandler: [limits(app, [perIp('signup', LIMITS.signup.ip), perEmail('signup', LIMITS.signup.email)])],
        schema: { body: ZSignupBody, response: { 201: ZSignupResponse } },
      },
      async (request, reply) => reply.status(201).send(await auth.signup(ctx, request.body)),
    );

    app.get(
      API.auth.confirmEmail.route,
      { preHandler: [limits(app, [perIp('confirm', LIMITS.confirm.ip)])], schema: { querystring: ZConfirmEmailQuery } },
      async (request, reply) => {
        const { outcome, email } = await auth.confirmEmail(ctx, request.query.token);
        const params = new URLSearchParams({ confirm: outcome });
        if (email && outcome !== 'confirmed') params.set('email', email);
        return reply.header('cache-control', 'no-store').redirect(`${ctx.config.appUrl}/signin?${params.toString()}`, 303);
      },
    );

    app.post(
      API.auth.resendConfirmation.route,
      {
        preHandler: [limits(app, [perIp('resend', LIMITS.resend.ip), perEmail('resend', LIMITS.resend.email)])],
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
        preHandler: [limits(app, [perIp('signin', LIMITS.signin.ip), perEmail('signin', LIMITS.signin.email)])],
        schema: { body: ZSigninBody, response: { 200: ZSigninResponse } },
      },
      async (request) => auth.signin(ctx, request.body),
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
      await auth.signout(ctx, refreshHeader(request));
      return { success: true as const };
    });

    app.get(
      API.auth.me.route,
      { preHandler: [authenticated], schema: { response: { 200: ZMeResponse } } },
      async (request) =>
        auth.me(ctx, { userId: request.auth!.userId, token: bearerToken(request)!, refreshToken: refreshHeader(request) }),
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
      const location = await finishGoogleSignin(ctx, {
        currentUrl: new URL(request.url, ctx.config.appUrl),
        cookie: readCookie(request, OAUTH_COOKIE),
      });
      return reply
        .header('set-cookie', `${OAUTH_COOKIE}=; Path=${OAUTH_COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secureCookie}`)
        .header('cache-control', 'no-store')
        .redirect(location, 303);
    });

    app.post(
      API.auth.processAuthCallback.route,
      {
        preHandler: [limits(app, [perIp('google', LIMITS.google.ip)])],
        schema: { body: ZProcessAuthCallbackBody, response: { 200: ZProcessAuthCallbackResponse } },
      },
      async (request) => processAuthCallback(ctx, { accessToken: request.body.accessToken }),
    );

    app.post(
      API.auth.forgotPassword.route,
      {
        preHandler: [limits(app, [perIp('forgot', LIMITS.forgot.ip), perEmail('forgot', LIMITS.forgot.email)])],
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
