import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { toast } from 'react-toastify';
import type { TApproval } from '../../../../contract/api/consent.schema.js';
import type { TJob } from '../../../../contract/api/jobs.schema.js';
import { EXPORT_PLATFORM_SPECS } from '../../../../contract/api/studio.schema.js';
import type { TTestimonialRequest } from '../../../../contract/api/testimonials.schema.js';
import { Alert } from '../../../components/alert';
import { Badge } from '../../../components/badge';
import type { BadgeTone } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { BellIcon, ShieldCheckIcon } from '../../../components/icons';
import { SwitchField } from '../../../components/switch-field';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { useAuth } from '../../../lib/auth-context';
import { formatDateTime } from '../../../lib/format';
import { useTestimonialJobs } from '../api/list-jobs';
import { useRemindApprovalMutation } from '../api/remind-approval';
import { useSetApprovalRequiredMutation } from '../api/set-approval-required';
import { remindState, withdrawnAt } from './customer-control';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';

const STATE_TONES: Record<TApproval['state'], BadgeTone> = {
  pending: 'pending',
  approved: 'completed',
  changes_requested: 'error',
  cancelled: 'expired',
};

/** Which video an approval is about, in words: an answer (as recorded or enhanced), the merged video, an export. */
export function approvalVideoLabel(t: TFunction, testimonial: TTestimonialRequest, jobs: readonly TJob[], approval: TApproval): string {
  const answerOf = (id: string | null) => testimonial.testimonial_responses.find((response) => response.id === id) ?? null;
  if (approval.responseId && !approval.jobId) {
    const response = answerOf(approval.responseId);
    return response ? t('testimonialDetail.approval.video.answer', { position: response.orderPosition, question: response.question.text }) : t('testimonialDetail.approval.video.unknown');
  }
  const job = jobs.find((candidate) => candidate.id === approval.jobId);
  if (!job) return t('testimonialDetail.approval.video.unknown');
  if (job.kind === 'merge') return t('testimonialDetail.approval.video.merged');
  if (job.kind === 'merged_subtitles') return t('testimonialDetail.approval.video.mergedSubtitles');
  if (job.kind === 'export') {
    const platform = job.params.platform;
    const spec = typeof platform === 'string' && platform in EXPORT_PLATFORM_SPECS ? EXPORT_PLATFORM_SPECS[platform as keyof typeof EXPORT_PLATFORM_SPECS] : null;
    return spec ? t('testimonialDetail.approval.video.export', { format: `${spec.label} (${spec.aspect})` }) : t('testimonialDetail.approval.video.unknown');
  }
  const response = answerOf(job.responseId);
  return response
    ? t('testimonialDetail.approval.video.answerEnhanced', { position: response.orderPosition, question: response.question.text })
    : t('testimonialDetail.approval.video.unknown');
}

/** The current time, moved on when `at` (a moment to wait for) passes, so a waiting button enables itself. */
function useNowPast(at: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!at) return undefined;
    const wait = new Date(at).getTime() - Date.now();
    if (wait <= 0 || wait > 2 ** 31 - 1) return undefined;
    const timer = window.setTimeout(() => setNow(Date.now()), wait + 50);
    return () => window.clearTimeout(timer);
  }, [at]);
  return now;
}

/**
 * The customer's approval of the final cut on the detail screen (issue 29): this testimonial's switch
 * (the effective value, with a hint when it follows the company's setting; toggling sends a boolean),
 * and every approval asked, newest first: the video it is about, its state in words, the customer's
 * comment, and a reminder (at most once per 24 hours). Test ids `approval-panel`, `approval-switch`,
 * `approval-switch-error`, `approval-item` (data-state), `approval-comment`, `remind-approval`,
 * `remind-approval-at`, `remind-approval-error`.
 */
export function ApprovalPanel({ testimonial }: { testimonial: TTestimonialRequest }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const companyId = user?.company_id ?? '';
  const control = testimonial.customer_control;
  const jobs = useTestimonialJobs(testimonial.id, Boolean(control?.approvals.length));
  const setRequired = useSetApprovalRequiredMutation();
  if (!control) return null;
  const withdrawn = withdrawnAt(testimonial);
  const approvals = control.approvals;
  const follows = control.approval_required_override === null;

  return (
    <Card padding="none" className="mt-8" data-testid="approval-panel" aria-labelledby="approval-title">
      <div className="border-b border-gray-100 px-4 py-4 sm:px-5">
        <div className="flex items-start gap-3">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-control bg-brand-50 text-brand-700 ring-1 ring-brand-200">
            <ShieldCheckIcon className="size-4" />
          </span>
          <div className="min-w-0">
            <h2 id="approval-title" className="text-base font-semibold text-gray-900">
              {t('testimonialDetail.approval.title')}
            </h2>
            <p className="mt-1 text-sm text-gray-600">{t('testimonialDetail.approval.description')}</p>
          </div>
        </div>
      </div>
      <div className="flex flex-col gap-4 px-4 py-4 sm:px-5">
        <SwitchField
          label={t('testimonialDetail.approval.switch')}
          hint={
            follows ? (
              <>
                {t('testimonialDetail.approval.followsCompany')}{' '}
                <Link to={paths.dashboard.settings} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                  {t('testimonialDetail.approval.settingsLink')}
                </Link>
              </>
            ) : (
              t('testimonialDetail.approval.ownSetting')
            )
          }
          checked={control.approval_required}
          disabled={setRequired.isPending || Boolean(withdrawn)}
          onCheckedChange={(required) => setRequired.mutate({ companyId, testimonialId: testimonial.id, required })}
          data-testid="approval-switch"
        />
        {setRequired.isError && (
          <Alert tone="error" title={t('testimonialDetail.approval.switchError')} data-testid="approval-switch-error">
            {apiErrorMessage(setRequired.error, t)}
          </Alert>
        )}
        <div>
          <h3 className="text-sm font-medium text-gray-900">{t('testimonialDetail.approval.listTitle')}</h3>
          {approvals.length === 0 ? (
            <p className="mt-1 text-sm text-gray-600" data-testid="approval-empty">
              {t(control.approval_required ? 'testimonialDetail.approval.emptyRequired' : 'testimonialDetail.approval.empty')}
            </p>
          ) : (
            <ul className="mt-2 divide-y divide-gray-100 rounded-control ring-1 ring-gray-200">
              {approvals.map((approval) => (
                <ApprovalItem
                  key={approval.id}
                  approval={approval}
                  video={approvalVideoLabel(t, testimonial, jobs.data?.jobs ?? [], approval)}
                  companyId={companyId}
                  testimonialId={testimonial.id}
                  locked={Boolean(withdrawn)}
                />
              ))}
            </ul>
          )}
        </div>
      </div>
    </Card>
  );
}

function ApprovalItem({
  approval,
  video,
  companyId,
  testimonialId,
  locked,
}: {
  approval: TApproval;
  video: string;
  companyId: string;
  testimonialId: string;
  locked: boolean;
}) {
  const { t } = useTranslation();
  const remind = useRemindApprovalMutation();
  const now = useNowPast(approval.canRemindAt);
  const reminder = remindState(approval, now);
  const commentId = `approval-comment-${approval.id}`;

  return (
    <li className="flex flex-col gap-2 px-3 py-3 sm:px-4" data-testid="approval-item" data-state={approval.state} data-approval-id={approval.id}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="min-w-0 text-sm font-medium break-words text-gray-900" data-testid="approval-video">
          {video}
        </p>
        <Badge tone={STATE_TONES[approval.state]} dot data-testid="approval-state">
          {t(`testimonialDetail.approval.state.${approval.state}`)}
        </Badge>
      </div>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-600 tabular-nums">
        <span>{t('testimonialDetail.approval.asked', { date: formatDateTime(approval.requestedAt) })}</span>
        {approval.reminderCount > 0 && (
          <span>{t('testimonialDetail.approval.reminded', { count: approval.reminderCount, date: formatDateTime(approval.lastSentAt) })}</span>
        )}
        {approval.decidedAt && <span>{t('testimonialDetail.approval.decided', { date: formatDateTime(approval.decidedAt) })}</span>}
      </p>
      {approval.comment && (
        <figure className="rounded-control bg-gray-50 px-3 py-2 ring-1 ring-gray-200">
          <figcaption id={commentId} className="text-xs font-medium text-gray-500">
            {t('testimonialDetail.approval.comment')}
          </figcaption>
          <blockquote aria-labelledby={commentId} className="mt-1 text-sm whitespace-pre-line text-gray-900" data-testid="approval-comment">
            {approval.comment}
          </blockquote>
        </figure>
      )}
      {approval.state === 'pending' && !locked && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <Button
            size="sm"
            variant="secondary"
            leadingIcon={<BellIcon className="size-4" />}
            disabled={!reminder.can}
            loading={remind.isPending}
            aria-label={t('testimonialDetail.approval.remindLabel', { video })}
            aria-describedby={!reminder.can && reminder.at ? `remind-at-${approval.id}` : undefined}
            onClick={() =>
              remind.mutate(
                { companyId, testimonialId, approvalId: approval.id },
                {
                  onSuccess: () => toast.success(t('testimonialDetail.approval.remindSent')),
                  onError: (error) => console.warn('POST /api/approvals/{id}/remind failed.', error),
                },
              )
            }
            data-testid="remind-approval"
          >
            {t('testimonialDetail.approval.remind')}
          </Button>
          {!reminder.can && reminder.at && (
            <span id={`remind-at-${approval.id}`} className="text-xs text-gray-600 tabular-nums" data-testid="remind-approval-at">
              {t('testimonialDetail.approval.remindAt', { date: formatDateTime(reminder.at) })}
            </span>
          )}
        </div>
      )}
      {remind.isError && (
        <Alert tone="error" title={t('testimonialDetail.approval.remindError')} data-testid="remind-approval-error">
          {apiErrorMessage(remind.error, t)}
        </Alert>
      )}
    </li>
  );
}
