/**
 * The customer's control over a testimonial on the detail screen (issue 29), as pure functions of the
 * detail's `customer_control` and the testimonial's jobs: whether the studio is locked, and whether a
 * video may be published or must first be approved by the customer.
 */
import type { TApproval, TCustomerControl } from '../../../../contract/api/consent.schema.js';
import type { TJob } from '../../../../contract/api/jobs.schema.js';
import type { TTestimonialRequest, TTestimonialResponse } from '../../../../contract/api/testimonials.schema.js';
import type { TPublishTarget } from './publishing';
import { renderJobOf } from './publishing';

/** When the customer withdrew their consent, if they did (an older server says nothing: null). */
export function withdrawnAt(testimonial: Pick<TTestimonialRequest, 'customer_control'> | null | undefined): string | null {
  return testimonial?.customer_control?.consent_withdrawn_at ?? null;
}

/** Whether the customer asked for this answer to be removed. */
export function isRemoved(response: Pick<TTestimonialResponse, 'removal_requested_at'>): boolean {
  return Boolean(response.removal_requested_at);
}

/** The approval that decides whether a video may be published: the newest one about it that is not cancelled. */
export function approvalOf(approvals: readonly TApproval[], jobs: readonly TJob[], target: TPublishTarget): TApproval | null {
  const live = approvals.filter((approval) => approval.state !== 'cancelled');
  if (target.kind === 'response') return live.find((approval) => approval.jobId === null && approval.responseId === target.responseId) ?? null;
  const job = renderJobOf(jobs, target.url);
  return job ? (live.find((approval) => approval.jobId === job.id) ?? null) : null;
}

/**
 * What stands between a video and Publish when the customer's approval is required (the server refuses
 * the same cases with approval_required, approval_pending and approval_changes_requested):
 * - 'ask': never asked (or the last request was cancelled);
 * - 'pending': asked, not answered yet;
 * - 'changes': the customer asked for changes;
 * null: nothing, Publish as usual (approval not required, or approved).
 */
export type TApprovalGate = 'ask' | 'pending' | 'changes';

export function approvalGate(control: TCustomerControl | undefined, approval: TApproval | null): TApprovalGate | null {
  if (!control?.approval_required) return null;
  if (!approval) return 'ask';
  if (approval.state === 'approved') return null;
  if (approval.state === 'pending') return 'pending';
  return approval.state === 'changes_requested' ? 'changes' : 'ask';
}

/** Whether the company may remind the customer of a pending approval at `nowMs`, and from when. */
export function remindState(approval: TApproval, nowMs: number): { can: boolean; at: string | null } {
  if (approval.state !== 'pending' || !approval.canRemindAt) return { can: false, at: null };
  return { can: new Date(approval.canRemindAt).getTime() <= nowMs, at: approval.canRemindAt };
}
