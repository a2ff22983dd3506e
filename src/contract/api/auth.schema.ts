/**
 * Accounts and sessions (spec: public pages §3, §5, §7; issue 3).
 *
 * Every path, method and field name is the spec's own, including its mix of camelCase
 * (companyName, refreshToken, rememberMe) and snake_case (company_id, access_token, new_password).
 */
import { ZMyCompany, ZRole } from './members.schema.js';
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../constants.js';
import {
  TEXT_LIMITS,
  ZHttpUrl,
  ZId,
  ZLanguage,
  ZEmail,
  ZSuccessResponse,
  emailField,
  requiredText,
} from './common.js';

/* ------------------------------------------------------------------ headers */

/** Header carrying the stored refresh token on every non-public call (with `Authorization: Bearer`). */
export const REFRESH_TOKEN_HEADER = 'x-refresh-token';

/** The credential headers the client sends on every call whose path does not contain /api/public/. */
export const ZAuthHeaders = z.object({
  authorization: z.string().optional(),
  [REFRESH_TOKEN_HEADER]: z.string().optional(),
});
export type TAuthHeaders = z.infer<typeof ZAuthHeaders>;

/* ------------------------------------------------------------------ fields */

export const PASSWORD_REQUIRED_MESSAGE = 'Password is required';
export const PASSWORD_TOO_SHORT_MESSAGE = `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;

/** A new password: at least PASSWORD_MIN_LENGTH characters. Never trimmed (spaces are legitimate). */
export const ZNewPassword = z
  .string({ error: PASSWORD_REQUIRED_MESSAGE })
  .min(1, PASSWORD_REQUIRED_MESSAGE)
  .min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT_MESSAGE)
  .max(TEXT_LIMITS.password, `Password must be at most ${TEXT_LIMITS.password} characters`);

/** An opaque token (access, refresh, reset, confirmation, one-time Google code). */
const token = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(TEXT_LIMITS.token, `${label} is too long`);

/* ------------------------------------------------------------------ user */

/** `{ id, name }` of the user's company. */
export const ZCompanyRef = z.object({
  id: ZId,
  name: z.string(),
  /** The customer approves the final cut before publishing (issue 29); absent from older servers. */
  approval_required: z.boolean().optional(),
});
export type TCompanyRef = z.infer<typeof ZCompanyRef>;

/**
 * The user object returned on sign-in and kept in storage.
 * `company_id` is null only for an account that has not created its company yet.
 */
export const ZUser = z.object({
  id: ZId,
  company_id: ZId.nullable(),
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  avatar_url: z.string().nullable(),
  onboarding_completed: z.boolean(),
  email_confirmed: z.boolean(),
  mail_language: ZLanguage,
  company: ZCompanyRef.optional(),
});
export type TUser = z.infer<typeof ZUser>;

/**
 * What the social provider tells us about a person who has no account yet
 * (spec §3: firstname, lastname, email, sub and picture). Kept by the client as googleUserData.
 */
export const ZGoogleProfile = z.object({
  sub: z.string(),
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  picture: z.string().nullable(),
});
export type TGoogleProfile = z.infer<typeof ZGoogleProfile>;

/** `{ token, refreshToken }`: a 15-minute access JWT and the opaque rotating refresh token. */
export const ZTokenPair = z.object({
  token: z.string().min(1),
  refreshToken: z.string().min(1),
});
export type TTokenPair = z.infer<typeof ZTokenPair>;

/* ------------------------------------------------------------------ POST /api/auth/signup */

const ZSignupFields = z.object({
  firstname: requiredText('First name', TEXT_LIMITS.personName),
  lastname: requiredText('Last name', TEXT_LIMITS.personName),
  email: ZEmail,
  /** Required, except when joining a company by an invitation (then no company is created). */
  companyName: requiredText('Company name', TEXT_LIMITS.companyName).optional(),
  /**
   * The token of an invitation's link (issue 32): the account joins the inviting company with the
   * invited role instead of creating one. The e-mail must be the invited one; it counts as confirmed.
   */
  invitation: z.string().trim().min(10).max(TEXT_LIMITS.token).optional(),
  /** Required (at least 6 characters) unless fromGoogle is true. */
  password: z
    .string()
    .max(TEXT_LIMITS.password, `Password must be at most ${TEXT_LIMITS.password} characters`)
    .optional(),
  /** The interface language at sign-up; the confirmation e-mail and the mail language follow it. */
  lang: ZLanguage,
  /* Google variant */
  fromGoogle: z.boolean().optional(),
  googleId: z.string().trim().max(TEXT_LIMITS.token).optional(),
  picture: z.union([ZHttpUrl, z.literal('')]).nullish(),
  /** For the Google variant: the `token` answered by process-auth-callback for a new user. */
  accessToken: z.string().trim().max(TEXT_LIMITS.token).optional(),
});

export const ZSignupBody = ZSignupFields.superRefine((value, ctx) => {
  if (value.companyName === undefined && value.invitation === undefined) {
    ctx.addIssue({ code: 'custom', path: ['companyName'], message: 'Company name is required' });
  }
  if (value.fromGoogle === true) {
    if (!value.accessToken) {
      ctx.addIssue({
        code: 'custom',
        path: ['accessToken'],
        message: 'The Google sign-up token is missing; sign in with Google again',
      });
    }
    return;
  }
  if (value.password === undefined || value.password.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_REQUIRED_MESSAGE });
  } else if (value.password.length < PASSWORD_MIN_LENGTH) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_TOO_SHORT_MESSAGE });
  }
});
export type TSignupBody = z.infer<typeof ZSignupBody>;

/** `{ user }` for an e-mail sign-up (no tokens until the e-mail is confirmed); plus tokens for Google. */
export const ZSignupResponse = z.object({
  user: ZUser,
  token: z.string().optional(),
  refreshToken: z.string().optional(),
});
export type TSignupResponse = z.infer<typeof ZSignupResponse>;

/* ------------------------------------------------------------------ POST /api/auth/signin */

export const ZSigninBody = z.object({
  email: emailField(),
  password: z
    .string({ error: PASSWORD_REQUIRED_MESSAGE })
    .min(1, PASSWORD_REQUIRED_MESSAGE)
    .max(TEXT_LIMITS.password, `Password must be at most ${TEXT_LIMITS.password} characters`),
  /** true: refresh token lives 30 days; otherwise 1 day. */
  rememberMe: z.boolean().optional(),
});
export type TSigninBody = z.infer<typeof ZSigninBody>;

export const ZSigninResponse = ZTokenPair.extend({ user: ZUser });
export type TSigninResponse = z.infer<typeof ZSigninResponse>;

/* ------------------------------------------------------------------ POST /api/auth/signin-google */

export const ZSigninGoogleBody = z.object({
  provider: z.literal('google', { error: 'Unsupported sign-in provider' }),
});
export type TSigninGoogleBody = z.infer<typeof ZSigninGoogleBody>;

/** `{ url }`: the provider's authorization address; the browser is redirected to it. */
export const ZSigninGoogleResponse = z.object({ url: ZHttpUrl });
export type TSigninGoogleResponse = z.infer<typeof ZSigninGoogleResponse>;

/* ------------------------------------------------------------------ GET /api/auth/google/callback */

/**
 * The provider's redirect to our server (not called by the client). The server exchanges the code
 * and redirects the browser to /auth/callback with a one-time code for process-auth-callback.
 */
export const ZGoogleCallbackQuery = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});
export type TGoogleCallbackQuery = z.infer<typeof ZGoogleCallbackQuery>;

/* ------------------------------------------------------------------ POST /api/auth/signout */

// Body: ZEmptyBody (none): the family of the refresh token sent in x-refresh-token is revoked.

/** The client ignores failures. */
export const ZSignoutResponse = ZSuccessResponse;
export type TSignoutResponse = z.infer<typeof ZSignoutResponse>;

/* ------------------------------------------------------------------ POST /api/auth/forgot-password */

export const FORGOT_PASSWORD_EMAIL_REQUIRED = 'Please enter your email address.';

export const ZForgotPasswordBody = z.object({
  email: emailField(FORGOT_PASSWORD_EMAIL_REQUIRED),
  lang: ZLanguage,
});
export type TForgotPasswordBody = z.infer<typeof ZForgotPasswordBody>;

/** The same answer whether the account exists or not. */
export const ZForgotPasswordResponse = ZSuccessResponse;
export type TForgotPasswordResponse = z.infer<typeof ZForgotPasswordResponse>;

/* ------------------------------------------------------------------ POST /api/auth/reset-password */

export const ZResetPasswordBody = z.object({
  /** The token from the link's fragment (#access_token=…). */
  access_token: token('Reset token'),
  new_password: ZNewPassword,
});
export type TResetPasswordBody = z.infer<typeof ZResetPasswordBody>;

/** The password is set and every refresh family of the user is revoked. */
export const ZResetPasswordResponse = ZSuccessResponse;
export type TResetPasswordResponse = z.infer<typeof ZResetPasswordResponse>;

/* ------------------------------------------------------------------ GET /api/auth/me */

/**
 * `{ user, token, refreshToken }`. The server stores refresh tokens only as hashes, so refreshToken
 * is the one sent in x-refresh-token, echoed back, and absent when none was sent.
 */
export const ZMeResponse = z.object({
  user: ZUser,
  /** The caller's role in the token's company, and the companies they belong to (issue 32). */
  role: ZRole.optional(),
  companies: z.array(ZMyCompany).optional(),
  token: z.string().min(1),
  refreshToken: z.string().min(1).optional(),
});
export type TMeResponse = z.infer<typeof ZMeResponse>;

/* ------------------------------------------------------------------ POST /api/auth/refresh */

export const ZRefreshBody = z.object({ refresh_token: token('Refresh token') });
export type TRefreshBody = z.infer<typeof ZRefreshBody>;

/** Rotated on every use, so refreshToken is always present. */
export const ZRefreshResponse = ZTokenPair;

/* ------------------------------------------------------------------ POST /api/auth/process-auth-callback */

export const AUTH_ACTIONS = ['signup', 'signin'] as const;
export const ZAuthAction = z.enum(AUTH_ACTIONS, { error: 'authAction must be signup or signin' });
export type TAuthAction = z.infer<typeof ZAuthAction>;

export const ZProcessAuthCallbackBody = z.object({
  /** The one-time code our server put in the /auth/callback address. */
  accessToken: token('Access token'),
  authAction: ZAuthAction,
});
export type TProcessAuthCallbackBody = z.infer<typeof ZProcessAuthCallbackBody>;

/**
 * `{ user, token, isNewUser }`.
 * - Existing user: `user` is the account, `token` the access JWT, plus `refreshToken` for the session.
 * - New user (no account yet): `user` is the provider's profile and `token` the sign-up token, which
 *   the client keeps as googleAccessToken and sends back as `accessToken` with the Google sign-up.
 */
export const ZProcessAuthCallbackResponse = z.discriminatedUnion('isNewUser', [
  z.object({
    isNewUser: z.literal(false),
    user: ZUser,
    token: z.string().min(1),
    refreshToken: z.string().min(1),
  }),
  z.object({
    isNewUser: z.literal(true),
    user: ZGoogleProfile,
    token: z.string().min(1),
  }),
]);
export type TProcessAuthCallbackResponse = z.infer<typeof ZProcessAuthCallbackResponse>;

/* ------------------------------------------------------------------ GET /api/auth/confirm-email */

/**
 * The link of the confirmation e-mail points here (`/api/auth/confirm-email?token=…`). The server
 * answers with a redirect to `/signin?confirm=<outcome>&email=…` (the address is left out only for an
 * unknown link): the sign-in form starts with the confirmed address, and after an expired or used link
 * the page can offer a new one through resend-confirmation (decision 160).
 */
export const ZConfirmEmailQuery = z.object({ token: token('Confirmation token') });
export type TConfirmEmailQuery = z.infer<typeof ZConfirmEmailQuery>;

export const CONFIRM_EMAIL_OUTCOMES = ['confirmed', 'expired', 'used', 'invalid'] as const;
export const ZConfirmEmailOutcome = z.enum(CONFIRM_EMAIL_OUTCOMES);
export type TConfirmEmailOutcome = z.infer<typeof ZConfirmEmailOutcome>;

/** The query the confirmation redirect puts on /signin. */
export const ZSigninConfirmQuery = z.object({
  confirm: ZConfirmEmailOutcome,
  email: z.string().optional(),
});
export type TSigninConfirmQuery = z.infer<typeof ZSigninConfirmQuery>;

/* ------------------------------------------------------------------ POST /api/auth/resend-confirmation */

export const ZResendConfirmationBody = z.object({
  email: ZEmail,
  lang: ZLanguage,
});
export type TResendConfirmationBody = z.infer<typeof ZResendConfirmationBody>;

/** The same answer whether the account exists, is confirmed already, or not. */
export const ZResendConfirmationResponse = ZSuccessResponse;
export type TResendConfirmationResponse = z.infer<typeof ZResendConfirmationResponse>;
