import { and, asc, eq, inArray } from 'drizzle-orm';
import type { TConsentEvent, TConsentEventKind, TConsentRecord } from '../../../contract/api/consent.schema.js';
import type { TRequestLanguageValue } from '../../../contract/api/common.js';
import type { AppContext } from '../../context.js';
import { approvals, companies, consentEvents, consents, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';

/**
 * The company's consent record of one testimonial (issue 29): the consent as the customer accepted it
 * (the `consents` row, shown as the event 'given' with the customer's address and browser), then every
 * `consent_events` row oldest first: withdrawn, removals asked (with the answer's question), approvals
 * asked, reminded, approved or changes asked (with the customer's comment), media deleted. Read through
 * the company of the verified token: another company's testimonial is a 404.
 */
export async function getConsentRecord(ctx: AppContext, input: { companyId: string; testimonialId: string }): Promise<TConsentRecord> {
  const [row] = await ctx.db
    .select({ request: testimonialRequests, companyName: companies.name })
    .from(testimonialRequests)
    .innerJoin(companies, eq(companies.id, testimonialRequests.companyId))
    .where(and(eq(testimonialRequests.id, input.testimonialId), eq(testimonialRequests.companyId, input.companyId)));
  if (!row) throw new AppError('not_found', { message: 'This testimonial does not exist or was deleted.' });
  const { request } = row;
  const [consent] = await ctx.db.select().from(consents).where(eq(consents.requestId, request.id));
  const events = await ctx.db
    .select()
    .from(consentEvents)
    .where(and(eq(consentEvents.requestId, request.id), eq(consentEvents.companyId, input.companyId)))
    .orderBy(asc(consentEvents.at), asc(consentEvents.id));
  const responseIds = [...new Set(events.flatMap((e) => (e.responseId ? [e.responseId] : [])))];
  const questions = new Map(
    responseIds.length
      ? (await ctx.db.select({ id: testimonialResponses.id, text: testimonialResponses.questionText }).from(testimonialResponses).where(inArray(testimonialResponses.id, responseIds))).map(
          (r) => [r.id, r.text] as const,
        )
      : [],
  );
  const approvalIds = [...new Set(events.flatMap((e) => (e.approvalId ? [e.approvalId] : [])))];
  const comments = new Map(
    approvalIds.length ? (await ctx.db.select({ id: approvals.id, comment: approvals.comment }).from(approvals).where(inArray(approvals.id, approvalIds))).map((a) => [a.id, a.comment] as const) : [],
  );
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

  const given: TConsentEvent[] = consent
    ? [{ kind: 'given', at: consent.acceptedAt.toISOString(), ip: consent.ip, userAgent: consent.userAgent, responseId: null, question: null, approvalId: null, comment: null }]
    : [];
  return {
    testimonial: {
      id: request.id,
      customer_name: request.submitterName?.trim() || request.customerName,
      customer_email: request.customerEmail,
      language: request.language as TRequestLanguageValue,
      submitted_at: request.submittedAt?.toISOString() ?? null,
    },
    company: { name: row.companyName },
    consent: consent
      ? {
          text: consent.text,
          textVersion: consent.textVersion,
          language: consent.language,
          acceptedAt: consent.acceptedAt.toISOString(),
          ip: consent.ip,
          userAgent: consent.userAgent,
          withdrawnAt: consent.withdrawnAt?.toISOString() ?? null,
          withdrawnIp: consent.withdrawnIp,
        }
      : null,
    events: [
      ...given,
      ...events.map(
        (e): TConsentEvent => ({
          kind: e.kind as TConsentEventKind,
          at: e.at.toISOString(),
          ip: e.ip,
          userAgent: e.userAgent,
          responseId: e.responseId,
          // A removal names its answer's question (as the answer holds it, else as the event recorded it).
          question: e.kind === 'removal_requested' ? ((e.responseId ? questions.get(e.responseId) : undefined) ?? text(e.detail.question)) : null,
          approvalId: e.approvalId,
          comment: e.kind === 'changes_requested' ? (text(e.detail.comment) ?? (e.approvalId ? (comments.get(e.approvalId) ?? null) : null)) : null,
        }),
      ),
    ],
    generatedAt: new Date().toISOString(),
  };
}
