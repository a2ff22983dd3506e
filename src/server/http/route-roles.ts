import type { TRole } from '../../contract/api/members.schema.js';
import { API, type AnyEndpoint } from '../../contract/api/paths.js';

/**
 * The lowest role allowed to call each dashboard route that requires a session (issue 32, decision 215):
 * owner > editor > viewer. The whole access matrix in one place, keyed by the contract's table of paths,
 * so that it reads at a glance and a reviewer sees every route's role together. `app.ts` copies each
 * route's role into its `config.role` when it is registered; `requireAuth` refuses a session route that
 * has none (500, fail closed), and `route-roles.test.ts` walks the registered routes and fails on any
 * session route missing here.
 *
 * - owner: everything, including billing (buying credits), the members, the API keys, and the company's
 *   identity (name, mail language, logo);
 * - editor: questions, requests, collection links, reminders, approvals, studio and video style,
 *   transcripts' edits, publishing and the wall, and spending credits (paying a testimonial);
 * - viewer: reading: the lists and details of testimonials, their media (signed addresses in the
 *   answers), transcripts, jobs, views, publications, and their own account.
 */
const ENTRIES: ReadonlyArray<readonly [AnyEndpoint, TRole]> = [
  // Your own account in the company.
  [API.auth.me, 'viewer'],
  [API.settings.profile, 'viewer'],
  [API.settings.completeOnboarding, 'viewer'],
  [API.companies.mine, 'viewer'],
  [API.companies.switch, 'viewer'],
  [API.invitations.accept, 'viewer'],
  // Company identity and billing.
  [API.settings.updateCompany, 'owner'],
  [API.settings.uploadLogo, 'owner'],
  [API.payment.checkoutSession, 'owner'],
  [API.payment.confirmSession, 'owner'],
  [API.payment.listTransactions, 'viewer'],
  [API.apiKeys.list, 'owner'],
  [API.apiKeys.create, 'owner'],
  [API.apiKeys.revoke, 'owner'],
  [API.members.list, 'owner'],
  [API.members.invite, 'owner'],
  [API.members.resendInvitation, 'owner'],
  [API.members.cancelInvitation, 'owner'],
  [API.members.changeRole, 'owner'],
  [API.members.remove, 'owner'],
  // Webhooks: owners only, like API keys (their secrets sign what leaves the product).
  [API.webhooks.list, 'owner'],
  [API.webhooks.create, 'owner'],
  [API.webhooks.update, 'owner'],
  [API.webhooks.remove, 'owner'],
  [API.webhooks.rotateSecret, 'owner'],
  [API.webhooks.deliveries, 'owner'],
  [API.webhooks.redeliver, 'owner'],
  [API.webhooks.test, 'owner'],
  // The activity log: every member reads it.
  [API.activity.list, 'viewer'],
  // Video style (studio) settings.
  [API.settings.get, 'viewer'],
  [API.settings.update, 'editor'],
  // Questions.
  [API.questions.list, 'viewer'],
  [API.questions.add, 'editor'],
  [API.questions.edit, 'editor'],
  [API.questions.delete, 'editor'],
  [API.questions.updatePosition, 'editor'],
  // Requests and testimonials.
  [API.testimonials.stats, 'viewer'],
  [API.testimonials.requests, 'viewer'],
  [API.testimonials.request, 'viewer'],
  [API.testimonials.requestSafe, 'viewer'],
  [API.testimonials.sendRequest, 'editor'],
  [API.testimonials.remind, 'editor'],
  [API.testimonials.pay, 'editor'],
  [API.funnel.get, 'viewer'],
  [API.funnel.timeline, 'viewer'],
  [API.reminders.get, 'viewer'],
  [API.reminders.update, 'editor'],
  // Collection links.
  [API.collection.list, 'viewer'],
  [API.collection.qr, 'viewer'],
  [API.collection.create, 'editor'],
  [API.collection.update, 'editor'],
  [API.collection.remove, 'editor'],
  // Studio.
  [API.studio.cropFocus, 'viewer'],
  [API.studio.generateIntro, 'editor'],
  [API.studio.merge, 'editor'],
  [API.studio.regenerateMerged, 'editor'],
  [API.studio.regenerate, 'editor'],
  [API.studio.exportResponse, 'editor'],
  [API.studio.exportTestimonial, 'editor'],
  [API.studio.trim, 'editor'],
  // Transcripts: reading is a viewer's, making and editing an editor's.
  [API.transcription.jobStatus, 'viewer'],
  [API.transcription.transcribe, 'editor'],
  [API.transcription.transcribeMerged, 'editor'],
  [API.transcription.save, 'editor'],
  [API.transcription.generateSubtitles, 'editor'],
  [API.transcription.generateMergedSubtitles, 'editor'],
  // Jobs.
  [API.jobs.get, 'viewer'],
  [API.jobs.list, 'viewer'],
  [API.jobs.retry, 'editor'],
  // Publishing.
  [API.publications.list, 'viewer'],
  [API.publications.publicationViews, 'viewer'],
  [API.publications.testimonialViews, 'viewer'],
  [API.publications.plays, 'viewer'],
  [API.publications.create, 'editor'],
  [API.publications.remove, 'editor'],
  [API.publications.quote, 'editor'],
  [API.publications.poster, 'editor'],
  [API.wall.get, 'viewer'],
  [API.wall.set, 'editor'],
  // Consent and approvals.
  [API.consent.record, 'viewer'],
  [API.consent.requestApproval, 'editor'],
  [API.consent.remindApproval, 'editor'],
  [API.consent.setApprovalRequired, 'editor'],
  [API.consent.companySetting, 'editor'],
  [API.consent.deleteMedia, 'editor'],
];

const key = (method: string, route: string) => `${method} ${route}`;

export const ROUTE_ROLES: ReadonlyMap<string, TRole> = new Map(ENTRIES.map(([endpoint, role]) => [key(endpoint.method, endpoint.route), role]));

/** The lowest role allowed for a registered route, or undefined when it is not a session route listed here. */
export const routeRole = (method: string, url: string): TRole | undefined => ROUTE_ROLES.get(key(method, url));
