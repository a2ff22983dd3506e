import { and, asc, eq, gte, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import {
  INVITATION_STEPS,
  LINK_STEPS,
  TIMELINE_KINDS,
  type TFunnel,
  type TFunnelRowCounts,
  type TFunnelSection,
  type TFunnelStep,
  type TRequestTimeline,
  type TTimelineKind,
} from '../../../contract/api/funnel.schema.js';
import type { TRequestLanguage } from '../../../contract/constants.js';
import { REQUEST_LANGUAGES } from '../../../contract/constants.js';
import type { AppContext } from '../../context.js';
import { collectionLinks, companies, requestEvents, testimonialRequests } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { effectiveStatus } from '../requests/requests.service.js';
import { recordRequestEvent } from './events.js';

/** The period the funnel shows when none is asked for: the last 30 days, today included. */
export const DEFAULT_FUNNEL_DAYS = 30;

/** Today's date (YYYY-MM-DD) in a time zone. */
export function dayIn(timeZone: string, at: Date): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * How far one request went, as an index into the invitation's steps (0 sent … 5 submitted). The funnel
 * counts a request at every step up to the furthest it reached: a later step proves the earlier ones (a
 * beacon lost on a bad network, an SMTP acceptance not heard back), so the counts never grow from one
 * step to the next (decision 196).
 */
export function furthestStep(request: { delivery: string; status: string; kinds: readonly string[] }): number {
  const has = (k: string) => request.kinds.includes(k);
  if (has('submitted') || request.status === 'completed') return 5;
  if (has('first_answer')) return 4;
  if (has('device_ok')) return 3;
  if (has('opened')) return 2;
  // A link the company copied and handed over itself reached the customer as far as anyone can know.
  if (has('delivered') || request.delivery === 'link') return 1;
  return 0;
}

const ratio = (count: number, previous: number): number | null => (previous > 0 ? Math.round((count / previous) * 10_000) / 10_000 : null);

interface CohortRequest {
  id: string;
  linkId: string | null;
  language: string;
  delivery: string;
  status: string;
  kinds: string[];
}

/** Counts of one group of requests (and the visitors of the links they came through). */
function rowCounts(requests: CohortRequest[], visitors: number): TFunnelRowCounts {
  const levels = requests.map(furthestStep);
  const atLeast = (n: number) => levels.filter((l) => l >= n).length;
  const sent = requests.length;
  const submitted = atLeast(5);
  return {
    link_opened: visitors,
    sent,
    opened: atLeast(2),
    device_ok: atLeast(3),
    first_answer: atLeast(4),
    submitted,
    bounced: requests.filter((r) => r.kinds.includes('bounced')).length,
    conversion: ratio(submitted, sent),
  };
}

function section(stepNames: readonly TFunnelStep[], counts: Record<TFunnelStep, number>, bounced: number): TFunnelSection {
  return {
    steps: stepNames.map((step, i) => ({ step, count: counts[step], conversion: i === 0 ? null : ratio(counts[step], counts[stepNames[i - 1]!]) })),
    bounced,
  };
}

export interface FunnelInput {
  companyId: string;
  from?: string | undefined;
  to?: string | undefined;
  linkId?: string | undefined;
  language?: TRequestLanguage | undefined;
  now?: Date;
}

/**
 * The company's funnel for a period of days in its time zone. Requests count as a cohort, by the day
 * they were created (a request sent on the last day and answered a week later still counts in that
 * period); link visitors count by the day of their visit (decision 196).
 */
export async function getFunnel(ctx: AppContext, input: FunnelInput): Promise<TFunnel> {
  const [company] = await ctx.db.select({ timeZone: companies.timeZone }).from(companies).where(eq(companies.id, input.companyId)).limit(1);
  if (!company) throw new AppError('not_found', { message: 'Your company no longer exists.' });
  const timeZone = company.timeZone;
  const to = input.to ?? dayIn(timeZone, input.now ?? new Date());
  const from = input.from ?? addDays(to, -(DEFAULT_FUNNEL_DAYS - 1));
  const linkId = input.linkId || null;
  const language = input.language || null;

  const allLinks = await ctx.db
    .select({ id: collectionLinks.id, name: collectionLinks.name })
    .from(collectionLinks)
    .where(eq(collectionLinks.companyId, input.companyId))
    .orderBy(asc(collectionLinks.createdAt), asc(collectionLinks.id));
  const links = linkId ? allLinks.filter((l) => l.id === linkId) : allLinks;
  if (linkId && links.length === 0) throw new AppError('not_found', { reason: 'funnel_link_not_found' });

  // The period's ends: midnight of `from` and of the day after `to`, in the company's time zone.
  const [bounds] = await ctx.db
    .select({
      start: sql<number>`extract(epoch from (${from}::date::timestamp at time zone ${timeZone}))`.mapWith(Number),
      end: sql<number>`extract(epoch from ((${to}::date + 1)::timestamp at time zone ${timeZone}))`.mapWith(Number),
    })
    .from(companies)
    .where(eq(companies.id, input.companyId));
  const start = new Date(bounds!.start * 1000);
  const end = new Date(bounds!.end * 1000);

  const requestFilters: (SQL | undefined)[] = [
    eq(testimonialRequests.companyId, input.companyId),
    gte(testimonialRequests.createdAt, start),
    lt(testimonialRequests.createdAt, end),
    linkId ? eq(testimonialRequests.collectionLinkId, linkId) : undefined,
    language ? eq(testimonialRequests.language, language) : undefined,
  ];
  const cohort: CohortRequest[] = await ctx.db
    .select({
      id: testimonialRequests.id,
      linkId: testimonialRequests.collectionLinkId,
      language: testimonialRequests.language,
      delivery: testimonialRequests.delivery,
      status: testimonialRequests.status,
      kinds: sql<string[]>`coalesce(array_agg(distinct ${requestEvents.kind}) filter (where ${requestEvents.kind} is not null), '{}')`,
    })
    .from(testimonialRequests)
    .leftJoin(requestEvents, and(eq(requestEvents.requestId, testimonialRequests.id), eq(requestEvents.companyId, input.companyId)))
    .where(and(...requestFilters))
    .groupBy(testimonialRequests.id);

  const visitorRows = await ctx.db
    .select({ linkId: requestEvents.linkId, language: requestEvents.language, count: sql<number>`count(*)`.mapWith(Number) })
    .from(requestEvents)
    .where(
      and(
        eq(requestEvents.companyId, input.companyId),
        eq(requestEvents.kind, 'link_opened'),
        isNotNull(requestEvents.linkId),
        gte(requestEvents.at, start),
        lt(requestEvents.at, end),
        linkId ? eq(requestEvents.linkId, linkId) : undefined,
        language ? eq(requestEvents.language, language) : undefined,
      ),
    )
    .groupBy(requestEvents.linkId, requestEvents.language);
  const visitorsWhere = (keep: (row: { linkId: string | null; language: string }) => boolean) =>
    visitorRows.filter(keep).reduce((sum, row) => sum + row.count, 0);

  const invitations = cohort.filter((r) => r.linkId === null && r.delivery !== 'collection');
  const fromLinks = cohort.filter((r) => r.linkId !== null || r.delivery === 'collection');

  const inv = rowCounts(invitations, 0);
  const invLevels = invitations.map(furthestStep);
  const invitationCounts = { ...inv, delivered: invLevels.filter((l) => l >= 1).length } as Record<TFunnelStep, number>;
  const viaLinks = rowCounts(fromLinks, visitorsWhere(() => true));

  return {
    from,
    to,
    time_zone: timeZone,
    link_id: linkId,
    language,
    invitations: section(INVITATION_STEPS, invitationCounts, inv.bounced),
    links: section(LINK_STEPS, { ...viaLinks, delivered: 0 } as Record<TFunnelStep, number>, viaLinks.bounced),
    link_choices: allLinks,
    by_link: links.map((link) => ({
      link_id: link.id,
      name: link.name,
      ...rowCounts(
        fromLinks.filter((r) => r.linkId === link.id),
        visitorsWhere((row) => row.linkId === link.id),
      ),
    })),
    by_language: REQUEST_LANGUAGES.filter((l) => !language || l === language).map((lang) => ({
      language: lang,
      ...rowCounts(
        cohort.filter((r) => r.language === lang),
        visitorsWhere((row) => row.language === lang),
      ),
    })),
  };
}

/** One request's steps in time order; another company's request, or none, is a 404. */
export async function getRequestTimeline(ctx: AppContext, input: { companyId: string; requestId: string }): Promise<TRequestTimeline> {
  const [request] = await ctx.db
    .select({ id: testimonialRequests.id })
    .from(testimonialRequests)
    .where(and(eq(testimonialRequests.id, input.requestId), eq(testimonialRequests.companyId, input.companyId)))
    .limit(1);
  if (!request) throw new AppError('not_found', { reason: 'timeline_request_not_found' });
  const rows = await ctx.db
    .select({ kind: requestEvents.kind, at: requestEvents.at, detail: requestEvents.detail })
    .from(requestEvents)
    .where(
      and(
        eq(requestEvents.requestId, request.id),
        eq(requestEvents.companyId, input.companyId),
        inArray(requestEvents.kind, [...TIMELINE_KINDS]),
      ),
    )
    .orderBy(asc(requestEvents.at), asc(requestEvents.id));
  const order = (kind: string) => TIMELINE_KINDS.indexOf(kind as TTimelineKind);
  // Steps of the same instant (one transaction) keep the funnel's order.
  rows.sort((a, b) => a.at.getTime() - b.at.getTime() || order(a.kind) - order(b.kind));
  return {
    request_id: request.id,
    events: rows.map((row) => {
      const via = row.detail.via;
      const code = row.detail.smtpCode;
      return {
        kind: row.kind as TTimelineKind,
        at: row.at.toISOString(),
        automatic: row.kind === 'reminded' ? row.detail.automatic === true : null,
        via: row.kind === 'sent' && (via === 'email' || via === 'link' || via === 'collection') ? via : null,
        smtp_code: row.kind === 'bounced' && typeof code === 'number' && Number.isInteger(code) ? code : null,
      };
    }),
  };
}

/**
 * The customer's page reports a step no other call shows (camera and microphone granted, first answer
 * recorded). Only a pending request's own token records anything; whatever the token, the caller learns
 * nothing (the route answers 204 either way).
 */
export async function recordProgress(ctx: AppContext, input: { token: string; step: 'device_ok' | 'first_answer'; now?: Date }): Promise<boolean> {
  const [request] = await ctx.db
    .select({ id: testimonialRequests.id, companyId: testimonialRequests.companyId, language: testimonialRequests.language, status: testimonialRequests.status, expiresAt: testimonialRequests.expiresAt })
    .from(testimonialRequests)
    .where(eq(testimonialRequests.token, input.token))
    .limit(1);
  if (!request || effectiveStatus(request, (input.now ?? new Date()).getTime()) !== 'pending') return false;
  await recordRequestEvent(ctx.db, { companyId: request.companyId, requestId: request.id, kind: input.step, language: request.language });
  return true;
}

/** Requests whose 'opened' step this process has written: the page validates its link on every load. */
const openedWritten = new Set<string>();
const OPENED_MEMO_LIMIT = 50_000;

/**
 * The customer opened their link (the page validated a pending request's token). Written once per
 * request and process (the unique index keeps it once across processes); a failure to write it is
 * logged and never stops the customer's page.
 */
export async function recordOpened(ctx: AppContext, request: { id: string; companyId: string; language: string }): Promise<void> {
  if (openedWritten.has(request.id)) return;
  try {
    await recordRequestEvent(ctx.db, { companyId: request.companyId, requestId: request.id, kind: 'opened', language: request.language });
    if (openedWritten.size >= OPENED_MEMO_LIMIT) openedWritten.clear();
    openedWritten.add(request.id);
  } catch (error) {
    ctx.logger.warn({ err: error, requestId: request.id }, 'funnel: the opened step was not recorded');
  }
}
