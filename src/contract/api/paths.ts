/**
 * The one table of every HTTP call: its method, its Fastify route template (`route`) and its path
 * builder (`path`: the literal path, or a function of the path parameters in template order).
 * The client builds addresses with `path`; the server registers `route` (or ROUTE_TEMPLATES).
 *
 * The spec writes the public paths without a leading slash ("api/public/testimonial/validate/{token}");
 * here every path starts with '/'. `{param}` of the spec is `:param` in the templates.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The names of the `:params` of a template, in order. */
export type RouteParamNames<T extends string> = T extends `${string}:${infer P}/${infer Rest}`
  ? [P, ...RouteParamNames<`/${Rest}`>]
  : T extends `${string}:${infer P}`
    ? [P]
    : [];

type StringArgs<Names extends readonly string[]> = { [K in keyof Names]: string };

/** The literal path of a template without parameters; otherwise a builder taking one string each. */
export type PathBuilder<T extends string> =
  RouteParamNames<T> extends [] ? T : (...params: StringArgs<RouteParamNames<T>>) => string;

export interface Endpoint<M extends HttpMethod = HttpMethod, T extends string = string> {
  readonly method: M;
  /** Fastify route template, e.g. '/api/testimonials/request/:id/remind'. */
  readonly route: T;
  /** Path builder, e.g. (id) => '/api/testimonials/request/<id>/remind'. */
  readonly path: PathBuilder<T>;
}

/** Any entry of the table, with its path builder loosely typed. */
export interface AnyEndpoint {
  readonly method: HttpMethod;
  readonly route: string;
  readonly path: string | ((...params: string[]) => string);
}

const PARAM_PATTERN = /:([A-Za-z_][A-Za-z0-9_]*)/g;

function endpoint<M extends HttpMethod, const T extends string>(method: M, route: T): Endpoint<M, T> {
  const names = [...route.matchAll(PARAM_PATTERN)].map((match) => match[1]);
  if (names.length === 0) {
    return { method, route, path: route as unknown as PathBuilder<T> };
  }
  const build = (...params: string[]): string => {
    let index = 0;
    return route.replace(PARAM_PATTERN, (_whole, name: string) => {
      const value = params[index];
      index += 1;
      if (typeof value !== 'string' || value.length === 0) {
        throw new Error(`Missing path parameter '${name}' for ${method} ${route}`);
      }
      return encodeURIComponent(value);
    });
  };
  return { method, route, path: build as unknown as PathBuilder<T> };
}

export const API = {
  auth: {
    signup: endpoint('POST', '/api/auth/signup'),
    signin: endpoint('POST', '/api/auth/signin'),
    signinGoogle: endpoint('POST', '/api/auth/signin-google'),
    /** The provider's redirect to our server; not called by the client. */
    googleCallback: endpoint('GET', '/api/auth/google/callback'),
    signout: endpoint('POST', '/api/auth/signout'),
    forgotPassword: endpoint('POST', '/api/auth/forgot-password'),
    resetPassword: endpoint('POST', '/api/auth/reset-password'),
    me: endpoint('GET', '/api/auth/me'),
    refresh: endpoint('POST', '/api/auth/refresh'),
    processAuthCallback: endpoint('POST', '/api/auth/process-auth-callback'),
    /** The link of the confirmation e-mail (`?token=`); answers with a redirect to /signin. */
    confirmEmail: endpoint('GET', '/api/auth/confirm-email'),
    resendConfirmation: endpoint('POST', '/api/auth/resend-confirmation'),
  },
  questions: {
    list: endpoint('GET', '/api/questions/list'),
    add: endpoint('POST', '/api/questions/add'),
    edit: endpoint('POST', '/api/questions/edit'),
    delete: endpoint('POST', '/api/questions/delete'),
    updatePosition: endpoint('POST', '/api/questions/update-position'),
  },
  testimonials: {
    stats: endpoint('GET', '/api/testimonials/stats'),
    /** The list of requests. */
    requests: endpoint('GET', '/api/testimonials/requests'),
    /** Send a new request. */
    sendRequest: endpoint('POST', '/api/testimonials/request'),
    remind: endpoint('POST', '/api/testimonials/request/:id/remind'),
    /** The testimonial detail, with media once paid. */
    request: endpoint('GET', '/api/testimonials/request/:id'),
    /** The request without media (request detail page). */
    requestSafe: endpoint('GET', '/api/testimonials/request-safe/:id'),
    pay: endpoint('POST', '/api/testimonials/pay/:id'),
  },
  studio: {
    generateIntro: endpoint('POST', '/api/testimonials/response/:id/generate-modified/intro'),
    merge: endpoint('POST', '/api/testimonials/:id/merge'),
    regenerateMerged: endpoint('POST', '/api/testimonials/:id/regenerate-merged'),
    regenerate: endpoint('POST', '/api/testimonials/response/:id/regenerate'),
    exportResponse: endpoint('POST', '/api/testimonials/response/:id/export-v2'),
    exportTestimonial: endpoint('POST', '/api/testimonials/:id/export-v2'),
    /** Sets the part of an answer every output uses (issue 31, decision 201). */
    trim: endpoint('PUT', '/api/testimonials/response/:id/trim'),
    /** Where the crop editor centres its frame at first: the answer's centre of motion (issue 31). */
    cropFocus: endpoint('GET', '/api/testimonials/response/:id/crop-focus'),
  },
  transcription: {
    transcribe: endpoint('POST', '/api/testimonials/response/:id/transcribe'),
    transcribeMerged: endpoint('POST', '/api/testimonials/:id/transcribe-merged-responses'),
    /** Saves an answer's subtitle lines, typed or corrected (decision 167). */
    save: endpoint('PUT', '/api/testimonials/response/:id/transcription'),
    jobStatus: endpoint('GET', '/api/testimonials/transcription-job/:jobId/status'),
    generateSubtitles: endpoint('POST', '/api/testimonials/response/:id/generate-modified/subtitles'),
    generateMergedSubtitles: endpoint('POST', '/api/testimonials/:id/generate-merged-with-all-subtitles'),
  },
  jobs: {
    /** One media job (jobs.schema.ts); another company's id is a 404. */
    get: endpoint('GET', '/api/jobs/:id'),
    /** The jobs of one testimonial, or of one of its answers (?testimonialId=&responseId=), newest first. */
    list: endpoint('GET', '/api/jobs'),
    /** A failed job again, as a new job of the same kind, subject and parameters → 202 ZJob. */
    retry: endpoint('POST', '/api/jobs/:id/retry'),
  },
  settings: {
    get: endpoint('GET', '/api/auth/settings'),
    update: endpoint('POST', '/api/auth/update-settings'),
    uploadLogo: endpoint('POST', '/api/auth/upload-logo'),
    profile: endpoint('GET', '/api/user/profile'),
    updateCompany: endpoint('PUT', '/api/user/update-company'),
    completeOnboarding: endpoint('PUT', '/api/user/complete-onboarding'),
  },
  public: {
    /** The server's public configuration (app-config.schema.ts). */
    appConfig: endpoint('GET', '/api/public/app-config'),
    validate: endpoint('GET', '/api/public/testimonial/validate/:token'),
    /** multipart/form-data. */
    save: endpoint('POST', '/api/public/testimonial/save'),
  },
  payment: {
    checkoutSession: endpoint('POST', '/api/payment/checkout-session'),
    /** Fulfilment from the success return; idempotent with the webhook. */
    confirmSession: endpoint('POST', '/api/payment/confirm-session'),
    /** Stripe's webhook (raw body, signed); not called by the client. */
    webhook: endpoint('POST', '/api/payment/webhook'),
    listTransactions: endpoint('GET', '/api/payment/list-transaction'),
  },
  health: {
    check: endpoint('GET', '/api/health'),
    /** Readiness: database, storage and queue reachable (200), else 503 in the error shape. */
    ready: endpoint('GET', '/api/ready'),
  },
  publications: {
    /** Publish a ready render or an answer as recorded (publications.schema.ts) → 201. */
    create: endpoint('POST', '/api/publications'),
    /** The company's live publications (?testimonialId=). */
    list: endpoint('GET', '/api/publications'),
    /** Unpublish: the share page, the embed and the media answer 404 at once → 204. */
    remove: endpoint('DELETE', '/api/publications/:id'),
    /** Set or clear the publication's quote, words from its transcript ({ quote: string | null }) → 200. */
    quote: endpoint('PUT', '/api/publications/:id/quote'),
    /** Choose the poster of a publication: a moment of its video, or null for the automatic frame (decision 168). */
    poster: endpoint('PUT', '/api/publications/:id/poster'),
    /** oEmbed (https://oembed.com) for a share page's address (?url=) → JSON, type video. */
    oembed: endpoint('GET', '/api/oembed'),
    /** A player's view beacon (public; views.schema.ts): { slug, milestone, token } → 204, counted or not; 403 from a foreign Origin. */
    viewBeacon: endpoint('POST', '/api/publications/views'),
    /** Daily views of one publication (?days=, 30 by default) → views.schema.ts. */
    publicationViews: endpoint('GET', '/api/publications/:id/views'),
    /** Daily views of a testimonial, all its publications (?days=). */
    testimonialViews: endpoint('GET', '/api/testimonials/:id/views'),
    /** Plays per testimonial of the company, for the testimonials list. */
    plays: endpoint('GET', '/api/publications/plays'),
  },
  wall: {
    /** The company's wall: its addresses, snippets and every live publication with its place (wall.schema.ts). */
    get: endpoint('GET', '/api/wall'),
    /** Which publications the wall shows, in order, in one transaction → the wall. */
    set: endpoint('PUT', '/api/wall'),
  },
  /** The customer stays in control (issue 29, consent.schema.ts): the company's side. */
  consent: {
    /** The consent given and everything after it → ZConsentRecord (the JSON download and the printable page). */
    record: endpoint('GET', '/api/testimonials/:id/consent-record'),
    /** Ask the customer to approve one video ({ jobId } or { responseId }) → 201 ZApproval; the e-mail goes at once. */
    requestApproval: endpoint('POST', '/api/testimonials/:id/approvals'),
    /** Send the approval e-mail again, at most once per 24 hours → 200 ZApproval. */
    remindApproval: endpoint('POST', '/api/approvals/:id/remind'),
    /** This testimonial's approval switch ({ required: boolean | null }) → ZApprovalRequiredResponse. */
    setApprovalRequired: endpoint('PUT', '/api/testimonials/:id/approval-required'),
    /** The company's default approval setting ({ approval_required }) → same. */
    companySetting: endpoint('PUT', '/api/user/approval-setting'),
    /** Delete a withdrawn testimonial's media now, before the retention period → ZDeleteMediaResponse. */
    deleteMedia: endpoint('POST', '/api/testimonials/:id/delete-media'),
  },
  /** Open collection links and their QR codes (issue 30, collection.schema.ts). */
  collection: {
    /** The company's links, newest first, each with its counts → ZCollectionLinkList. */
    list: endpoint('GET', '/api/collection-links'),
    /** A new link → 201 ZCollectionLink. */
    create: endpoint('POST', '/api/collection-links'),
    /** Change a link (name, questions, language, gift, colour, expiry, maximum, switches) → ZCollectionLink. */
    update: endpoint('PUT', '/api/collection-links/:id'),
    /** Delete a link; its testimonials stay, unmarked. */
    remove: endpoint('DELETE', '/api/collection-links/:id'),
    /** The link's QR code (?format=svg|png), with the company's logo in the centre when it has one. */
    qr: endpoint('GET', '/api/collection-links/:id/qr'),
    /** Public: what the customer's first step shows (company, language, questions) → or 404/410 with the reason. */
    publicLink: endpoint('GET', '/api/public/collect/:slug'),
    /** Public: name, position and e-mail given → a request and its recording token (and whether a code was sent). */
    start: endpoint('POST', '/api/public/collect/:slug'),
    /** Public: the code sent to the e-mail, confirmed before the upload is accepted. */
    confirmCode: endpoint('POST', '/api/public/collect/confirm-code'),
    /** Public: send the code again (limited). */
    resendCode: endpoint('POST', '/api/public/collect/resend-code'),
  },
  /** Automatic reminders and unsubscribing (issue 30, reminders.schema.ts). */
  reminders: {
    /** The company's reminder days and time zone → ZReminderSettings. */
    get: endpoint('GET', '/api/user/reminder-settings'),
    /** Change them → ZReminderSettings. */
    update: endpoint('PUT', '/api/user/reminder-settings'),
  },
  /** The request funnel (issue 30, funnel.schema.ts). */
  funnel: {
    /** Counts and conversions per step for a period, optionally one collection link or one language → ZFunnel. */
    get: endpoint('GET', '/api/funnel'),
    /** One request's timeline: sent, delivered, reminded, opened, camera granted, first answer, submitted. */
    timeline: endpoint('GET', '/api/testimonials/request/:id/timeline'),
    /** Public: the customer's page reports a step no other call shows (camera granted, first answer recorded). */
    progress: endpoint('POST', '/api/public/testimonial/progress'),
  },
  /** The company's API keys (issue 32, api-keys.schema.ts), signed in with the dashboard's session. */
  apiKeys: {
    /** The company's keys, newest first, without their secret → ZApiKeyList. */
    list: endpoint('GET', '/api/api-keys'),
    /** A new key ({ name, scope }) → 201 ZCreatedApiKey: the full key, shown this once. */
    create: endpoint('POST', '/api/api-keys'),
    /** Revoke a key; another company's is 404. */
    revoke: endpoint('DELETE', '/api/api-keys/:id'),
  },
  /** The company's members and invitations (issue 32, members.schema.ts); owners only. */
  members: {
    /** Members with their roles, and pending invitations → ZMemberList. */
    list: endpoint('GET', '/api/members'),
    /** Invite by e-mail with a role ({ email, role }) → 201 ZInvitation; the e-mail goes out with it. */
    invite: endpoint('POST', '/api/members/invitations'),
    /** Send the invitation again (a new link, 7 more days) → ZInvitation. */
    resendInvitation: endpoint('POST', '/api/members/invitations/:id/resend'),
    /** Cancel an invitation: its link stops working → 204. */
    cancelInvitation: endpoint('DELETE', '/api/members/invitations/:id'),
    /** Change a member's role ({ role }) → 204; the last owner cannot be demoted. */
    changeRole: endpoint('PUT', '/api/members/:userId/role'),
    /** Remove a member → 204; their sessions in this company end at once; not the last owner. */
    remove: endpoint('DELETE', '/api/members/:userId'),
  },
  /** Invitations seen from their link (public) and accepted by a signed-in person. */
  invitations: {
    /** What the link invites to ({ token } in the query) → ZInvitationPreview; refused when not usable. */
    preview: endpoint('GET', '/api/invitations/preview'),
    /** Accept with the session of the invited e-mail ({ token }) → ZAcceptInvitationResponse. */
    accept: endpoint('POST', '/api/invitations/accept'),
  },
  /** The companies of the signed-in person (agencies, issue 32). */
  companies: {
    /** The companies I belong to, with my role in each → ZMyCompanies. */
    mine: endpoint('GET', '/api/companies/mine'),
    /** Work in another of my companies ({ companyId }) → ZSwitchCompanyResponse. */
    switch: endpoint('POST', '/api/companies/switch'),
  },
  /** The company's webhook endpoints (issue 32, webhooks.schema.ts), signed in with the dashboard's session. */
  webhooks: {
    /** The company's endpoints, newest first, without their secret → ZWebhookEndpointList. */
    list: endpoint('GET', '/api/webhooks'),
    /** A new endpoint ({ url, events, enabled }) → 201 ZWebhookEndpointWithSecret: the secret, shown this once. */
    create: endpoint('POST', '/api/webhooks'),
    /** Change the address, the events or on/off → ZWebhookEndpoint; another company's is 404. */
    update: endpoint('PUT', '/api/webhooks/:id'),
    /** Delete an endpoint and its deliveries. */
    remove: endpoint('DELETE', '/api/webhooks/:id'),
    /** A new signing secret → ZWebhookEndpointWithSecret (the old one stops at once). */
    rotateSecret: endpoint('POST', '/api/webhooks/:id/rotate-secret'),
    /** The endpoint's deliveries, newest first, with their attempts (?page, ?per_page) → ZWebhookDeliveryList. */
    deliveries: endpoint('GET', '/api/webhooks/:id/deliveries'),
    /** Send a delivery again (same webhook-id) → 202 ZWebhookDelivery. */
    redeliver: endpoint('POST', '/api/webhooks/:id/deliveries/:deliveryId/redeliver'),
    /** Send a test event ('webhook.test') → 202 ZWebhookDelivery. */
    test: endpoint('POST', '/api/webhooks/:id/test'),
  },
  /** The versioned API for other software (issue 32, v1.schema.ts), authenticated by an API key. */
  v1: {
    /** The key's company's testimonials, newest first, paginated (?page, ?per_page) → ZV1TestimonialList. */
    listTestimonials: endpoint('GET', '/api/v1/testimonials'),
    /** One of them → ZV1Testimonial; another company's is 404. */
    getTestimonial: endpoint('GET', '/api/v1/testimonials/:id'),
    /** Send a request, as the dashboard does (read_write keys) → 201 ZV1Request. */
    sendRequest: endpoint('POST', '/api/v1/requests'),
    /** The key's company's live publications, newest first, paginated → ZV1PublicationList. */
    listPublications: endpoint('GET', '/api/v1/publications'),
    /** Publish a ready studio video or an answer as recorded (read_write keys) → 201 ZV1PublishResponse. */
    publish: endpoint('POST', '/api/v1/publications'),
    /** Unpublish (read_write keys) → 204; another company's is 404. */
    unpublish: endpoint('DELETE', '/api/v1/publications/:id'),
    /** The OpenAPI 3.1 document of these calls, generated from the contract (public, no key). */
    openapi: endpoint('GET', '/api/v1/openapi.json'),
  },
  clientErrors: {
    /** Crash reports of the web app's error boundaries (client-errors.schema.ts); answers 202. */
    report: endpoint('POST', '/api/client-errors'),
  },
  /** The company's activity log (issue 32, activity.schema.ts): ?type, ?actor, ?from, ?to, ?cursor, ?limit → ZActivityPage. */
  activity: {
    list: endpoint('GET', '/api/activity'),
  },
} as const;

/** The API's reference page (issue 32, decision 214): server-rendered from the OpenAPI document, public; not an API call. */
export const V1_REFERENCE_PAGE = '/developers/api';

export type ApiTable = typeof API;
export type ApiGroup = keyof ApiTable;

/** The Fastify route templates of the same table: ROUTE_TEMPLATES.testimonials.remind, etc. */
export type RouteTemplates = {
  readonly [G in keyof ApiTable]: {
    readonly [K in keyof ApiTable[G]]: ApiTable[G][K] extends Endpoint<HttpMethod, infer T> ? T : never;
  };
};

export const ROUTE_TEMPLATES = Object.fromEntries(
  Object.entries(API).map(([group, endpoints]) => [
    group,
    Object.fromEntries(Object.entries(endpoints).map(([name, value]) => [name, (value as AnyEndpoint).route])),
  ]),
) as RouteTemplates;

/** Every endpoint of the table, flattened, with its `group.name` key (for route checks and tests). */
export function listEndpoints(): { key: string; endpoint: AnyEndpoint }[] {
  return Object.entries(API).flatMap(([group, endpoints]) =>
    Object.entries(endpoints).map(([name, value]) => ({ key: `${group}.${name}`, endpoint: value as AnyEndpoint })),
  );
}

/** Calls under this prefix carry no credentials and are never refreshed. */
export const PUBLIC_API_PREFIX = '/api/public/';

export function isPublicApiPath(path: string): boolean {
  return path.includes(PUBLIC_API_PREFIX);
}
