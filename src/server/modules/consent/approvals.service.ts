import { hashCustomerToken, newCustomerToken } from './customer.tokens.js';
import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import { RENDER_JOB_KINDS } from '../../../contract/api/jobs.schema.js';
import {
  APPROVAL_REMINDER_INTERVAL_HOURS,
  CUSTOMER_PAGES,
  type TApproval,
  type TApprovalRequiredResponse,
  type TApprovalState,
  type TCompanyApprovalSettingResponse,
} from '../../../contract/api/consent.schema.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx, ExecuteSql } from '../../db/client.js';
import { approvals, companies, consentEvents, jobs, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { queueMail } from '../../mail/send.js';
import { logoUrl } from '../settings/settings.service.js';
import { approvalEmail } from './approvals.emails.js';
import { refuseRemoved, refuseWithdrawn, renderedAnswers } from './control.js';
import { customerMailUnsubscribe } from '../reminders/unsubscribe-link.js';

/**
 * The approval of the final cut, company side (issue 29, decision 189). The company asks the customer to
 * approve one video (a ready render, or an answer as recorded): the row gets a fresh token (256 random
 * bits, stored only as its SHA-256), an `approval_requested` event is recorded and the e-mail with the
 * link `/approve/{token}` is queued in the same transaction (the outbox). A reminder, at most once per
 * 24 hours and only while pending, rotates the token (the e-mail needs the link again and only its hash
 * is kept). Publishing, when approval is required, needs the latest approval of that exact video approved.
 */

type ApprovalRow = typeof approvals.$inferSelect;
type RequestRow = typeof testimonialRequests.$inferSelect;

const INTERVAL_MS = APPROVAL_REMINDER_INTERVAL_HOURS * 3600_000;

/** An approval's token (the same kind as the customer page's, customer.tokens.ts) and the hash that is stored. */
function newApprovalToken(): { token: string; hash: string } {
  const token = newCustomerToken();
  return { token, hash: hashCustomerToken(token) };
}

export function toApproval(row: ApprovalRow): TApproval {
  const pending = row.state === 'pending';
  return {
    id: row.id,
    jobId: row.jobId,
    responseId: row.responseId,
    state: row.state as TApprovalState,
    comment: row.comment,
    requestedAt: row.createdAt.toISOString(),
    lastSentAt: row.lastSentAt.toISOString(),
    reminderCount: row.reminderCount,
    canRemindAt: pending ? new Date(row.lastSentAt.getTime() + INTERVAL_MS).toISOString() : null,
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

/** Whether publishing a testimonial waits for its customer's approval: its own switch, else the company's setting. */
export const approvalRequiredOf = (request: Pick<RequestRow, 'approvalRequired'>, company: { approvalRequired: boolean }) =>
  request.approvalRequired ?? company.approvalRequired;

/** A testimonial's approvals, newest first. */
export async function approvalsOf(db: DbOrTx, requestId: string): Promise<ApprovalRow[]> {
  return db.select().from(approvals).where(eq(approvals.requestId, requestId)).orderBy(desc(approvals.createdAt), desc(approvals.id));
}

/**
 * Refuses publishing a video (a render's job, or an answer as recorded) that needs the customer's approval
 * and does not have it: none asked (approval_required), still pending, or changes asked. The latest
 * approval about that exact video counts (cancelled ones are not approvals).
 */
export async function assertPublishApproved(db: DbOrTx, input: { request: RequestRow; jobId?: string; responseId?: string }): Promise<void> {
  const [company] = await db.select({ approvalRequired: companies.approvalRequired }).from(companies).where(eq(companies.id, input.request.companyId));
  if (!approvalRequiredOf(input.request, { approvalRequired: company?.approvalRequired ?? false })) return;
  const subject = input.jobId ? eq(approvals.jobId, input.jobId) : and(eq(approvals.responseId, input.responseId!), isNull(approvals.jobId));
  const [latest] = await db
    .select({ state: approvals.state })
    .from(approvals)
    .where(and(eq(approvals.requestId, input.request.id), subject, ne(approvals.state, 'cancelled')))
    .orderBy(desc(approvals.createdAt), desc(approvals.id))
    .limit(1);
  if (latest?.state === 'approved') return;
  throw new AppError('conflict', {
    reason: !latest ? 'approval_required' : latest.state === 'changes_requested' ? 'approval_changes_requested' : 'approval_pending',
  });
}

async function ownedRequest(db: DbOrTx, companyId: string, id: string, lock = false): Promise<RequestRow> {
  const query = db.select().from(testimonialRequests).where(and(eq(testimonialRequests.id, id), eq(testimonialRequests.companyId, companyId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('not_found', { message: 'This testimonial does not exist or was deleted.' });
  return row;
}

/** Queues the approval e-mail (first or reminder) to the customer, in the request's language, in the caller's transaction. */
async function queueApprovalMail(ctx: AppContext, o: { tx: DbOrTx; executeSql: ExecuteSql; request: RequestRow; token: string; reminder: boolean }) {
  const [company] = await o.tx.select().from(companies).where(eq(companies.id, o.request.companyId));
  await queueMail(
    ctx,
    approvalEmail({
      lang: o.request.language === 'french' ? 'fr' : 'en',
      brand: ctx.config.brandName,
      to: o.request.customerEmail!,
      customerName: o.request.submitterName?.trim() || o.request.customerName,
      company: { name: company!.name, logoUrl: logoUrl(ctx, company!) },
      url: `${ctx.config.appUrl}${CUSTOMER_PAGES.approval(o.token)}`,
      reminder: o.reminder,
      unsubscribe: customerMailUnsubscribe(ctx, o.request.id),
    }),
    { executeSql: o.executeSql },
  );
}

/**
 * POST /api/testimonials/{id}/approvals: asks the customer to approve one video of a paid testimonial of
 * the company whose consent stands: a ready render of it (`jobId`) or one of its prepared answers
 * (`responseId`), none of whose answers was removed. An older approval of the same video still pending is
 * cancelled (its link stops working): one question at a time per video.
 */
export async function requestApproval(ctx: AppContext, input: { companyId: string; testimonialId: string; jobId?: string | undefined; responseId?: string | undefined }): Promise<TApproval> {
  return ctx.database.transaction(async (executeSql, tx) => {
    const request = await ownedRequest(tx, input.companyId, input.testimonialId, true);
    if (!request.paid) throw new AppError('no_permission', { status: 402, message: 'Unlock this testimonial (one credit) before asking for approval.' });
    refuseWithdrawn(request);
    if (input.jobId) {
      const [job] = await tx.select().from(jobs).where(and(eq(jobs.id, input.jobId), eq(jobs.companyId, input.companyId)));
      if (!job) throw new AppError('not_found', { message: 'This video does not exist or was deleted.' });
      if (job.requestId !== request.id) throw new AppError('invalid_data', { message: 'This video belongs to another testimonial.', field: 'jobId' });
      if (!(RENDER_JOB_KINDS as readonly string[]).includes(job.kind)) {
        throw new AppError('invalid_data', { message: 'Only a video made in the studio can be approved.', field: 'jobId' });
      }
      if (job.phase !== 'ready' || !job.outputKey) throw new AppError('conflict', { message: 'This video is not ready yet. Ask for approval once it is ready.' });
      const inside = renderedAnswers(job) ?? (job.responseId ? [job.responseId] : null);
      const answers = await tx.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, request.id));
      refuseRemoved(answers.filter((a) => !inside || inside.includes(a.id)));
    } else {
      const [response] = await tx.select().from(testimonialResponses).where(and(eq(testimonialResponses.id, input.responseId!), eq(testimonialResponses.companyId, input.companyId)));
      if (!response) throw new AppError('not_found', { message: 'This answer does not exist or was deleted.' });
      if (response.requestId !== request.id) throw new AppError('invalid_data', { message: 'This answer belongs to another testimonial.', field: 'responseId' });
      refuseRemoved([response]);
      if (!response.videoKey) throw new AppError('conflict', { message: 'This answer is still being prepared. Ask for approval once it plays.' });
    }
    if (!request.customerEmail) throw new AppError('conflict', { reason: 'approval_no_email' });

    const subject = input.jobId ? eq(approvals.jobId, input.jobId) : and(eq(approvals.responseId, input.responseId!), isNull(approvals.jobId));
    await tx.update(approvals).set({ state: 'cancelled' }).where(and(eq(approvals.requestId, request.id), subject, eq(approvals.state, 'pending')));
    const { token, hash } = newApprovalToken();
    const [row] = await tx
      .insert(approvals)
      .values({ companyId: input.companyId, requestId: request.id, jobId: input.jobId ?? null, responseId: input.responseId ?? null, tokenHash: hash })
      .returning();
    await tx.insert(consentEvents).values({
      companyId: input.companyId,
      requestId: request.id,
      kind: 'approval_requested',
      approvalId: row!.id,
      responseId: input.responseId ?? null,
      detail: { jobId: input.jobId ?? null },
    });
    await queueApprovalMail(ctx, { tx, executeSql, request, token, reminder: false });
    return toApproval(row!);
  });
}

/**
 * POST /api/approvals/{id}/remind: sends the approval e-mail again, with a new link (the token is rotated:
 * only its hash is stored, and the old link stops working), at most once per 24 hours and only while the
 * approval is pending and the consent stands.
 */
export async function remindApproval(ctx: AppContext, input: { companyId: string; id: string }): Promise<TApproval> {
  return ctx.database.transaction(async (executeSql, tx) => {
    const [row] = await tx.select().from(approvals).where(and(eq(approvals.id, input.id), eq(approvals.companyId, input.companyId))).for('update');
    if (!row) throw new AppError('not_found', { message: 'This approval request does not exist.' });
    const request = await ownedRequest(tx, input.companyId, row.requestId);
    refuseWithdrawn(request);
    if (row.state !== 'pending') throw new AppError('conflict', { reason: 'approval_already_decided' });
    if (!request.customerEmail) throw new AppError('conflict', { reason: 'approval_no_email' });
    const wait = row.lastSentAt.getTime() + INTERVAL_MS - Date.now();
    if (wait > 0) throw new AppError('conflict', { reason: 'approval_reminder_too_soon', params: { hours: Math.max(1, Math.ceil(wait / 3600_000)) } });
    const { token, hash } = newApprovalToken();
    const [updated] = await tx
      .update(approvals)
      .set({ tokenHash: hash, lastSentAt: new Date(), reminderCount: row.reminderCount + 1 })
      .where(and(eq(approvals.id, row.id), eq(approvals.state, 'pending')))
      .returning();
    await tx.insert(consentEvents).values({ companyId: input.companyId, requestId: request.id, kind: 'approval_reminded', approvalId: row.id, responseId: row.responseId });
    await queueApprovalMail(ctx, { tx, executeSql, request, token, reminder: true });
    return toApproval(updated!);
  });
}

/** PUT /api/testimonials/{id}/approval-required: this testimonial's switch (null follows the company's setting). */
export async function setApprovalRequired(ctx: AppContext, input: { companyId: string; testimonialId: string; required: boolean | null }): Promise<TApprovalRequiredResponse> {
  await ownedRequest(ctx.db, input.companyId, input.testimonialId);
  await ctx.db
    .update(testimonialRequests)
    .set({ approvalRequired: input.required, updatedAt: new Date() })
    .where(and(eq(testimonialRequests.id, input.testimonialId), eq(testimonialRequests.companyId, input.companyId)));
  const [company] = await ctx.db.select({ approvalRequired: companies.approvalRequired }).from(companies).where(eq(companies.id, input.companyId));
  return { approval_required: input.required ?? company?.approvalRequired ?? false, approval_required_override: input.required };
}

/** PUT /api/user/approval-setting: the company's default (off unless set). */
export async function setCompanyApprovalSetting(ctx: AppContext, input: { companyId: string; approvalRequired: boolean }): Promise<TCompanyApprovalSettingResponse> {
  await ctx.db.update(companies).set({ approvalRequired: input.approvalRequired, updatedAt: new Date() }).where(eq(companies.id, input.companyId));
  return { approval_required: input.approvalRequired };
}
