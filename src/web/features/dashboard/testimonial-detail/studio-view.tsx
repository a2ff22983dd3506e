import { useTranslation } from 'react-i18next';
import type { TTestimonialRequest } from '../../../../contract/api/testimonials.schema.js';
import { Button } from '../../../components/button';
import { MergeIcon } from '../../../components/icons';
import { answerCard, mergedCard } from './card-content';
import { Header } from './detail-header';
import { draftCard } from './draft-card';
import { Locked, NoAnswers } from './detail-states';
import { anyJobRunning, isPreparing, mergedActions } from './studio-state';
import type { TPublishing } from './use-publishing';
import type { TDialog } from './use-studio';
import { VideoCard } from './video-card';
import { ConsentWithdrawnBanner, StudioLockedNote } from './consent-banner';
import { isRemoved, withdrawnAt } from './customer-control';
import { formatDate } from '../../../lib/format';
import { useRole } from '../../../lib/use-role';

export interface StudioViewProps {
  testimonial: TTestimonialRequest;
  onReload: () => void;
  onDialog: (dialog: TDialog) => void;
  /** Publishing (issue 19); without it, no Publish buttons. */
  publishing?: TPublishing;
}

/** The loaded testimonial: locked until paid, empty until recorded, otherwise the merged video and the answers. */
export function StudioView({ testimonial, onReload, onDialog, publishing }: StudioViewProps) {
  const { t } = useTranslation();
  const { can } = useRole();
  const responses = testimonial.testimonial_responses;
  if (testimonial.status === 'completed' && !testimonial.paid) {
    // Withdrawn before it was unlocked: nothing to unlock (the server refuses the credit), only what happened.
    if (withdrawnAt(testimonial)) {
      return (
        <>
          <Header testimonial={testimonial} />
          <ConsentWithdrawnBanner testimonial={testimonial} />
        </>
      );
    }
    return <Locked testimonial={testimonial} onPay={can('payTestimonial') ? () => onDialog({ kind: 'pay' }) : null} />;
  }
  if (responses.length === 0) return <NoAnswers testimonial={testimonial} />;

  const withdrawn = withdrawnAt(testimonial);
  const locked = withdrawn ? t('testimonialDetail.control.lockedShort', { date: formatDate(withdrawn) }) : null;
  const busy = anyJobRunning(testimonial);
  const preparing = responses.some(isPreparing);
  const merged = mergedActions(testimonial);
  const usable = responses.filter((response) => !isRemoved(response)).length;
  const readOnly = !can('studio');
  const common = { onReload, publishing: publishing?.enabled ? publishing : undefined, locked, readOnly };

  return (
    <>
      <Header testimonial={testimonial} />
      <ConsentWithdrawnBanner testimonial={testimonial} />
      {testimonial.draft ? (
        <section aria-label={t('testimonialDetail.draft.title')} className="mb-8">
          <VideoCard {...draftCard(t, { ...common, testimonial, draft: testimonial.draft, busy })} />
        </section>
      ) : null}
      <section aria-label={t('testimonialDetail.merged.title')} className="mb-8">
        {merged.show ? (
          <VideoCard
            {...mergedCard(t, {
              ...common,
              testimonial,
              busy,
              preparing,
              on: {
                subtitles: () => onDialog({ kind: 'merged_subtitles' }),
                export: () => onDialog({ kind: 'export', response: null }),
                regenerate: () => onDialog({ kind: 'regenerate_merged' }),
              },
            })}
          />
        ) : merged.merge ? (
          <MergePrompt
            count={usable}
            busy={busy || preparing || usable === 0 || Boolean(locked) || readOnly}
            locked={locked ?? (readOnly ? t('errors.reasons.role_required_editor') : null)}
            onMerge={() => onDialog({ kind: 'merge' })}
          />
        ) : null}
      </section>
      <section aria-labelledby="answers-title">
        <div className="mb-4 flex items-baseline justify-between gap-4">
          <h2 id="answers-title" className="text-base font-semibold text-gray-900">
            {t('testimonialDetail.answers.title')}
          </h2>
          <p className="text-sm text-gray-500">{t('testimonialDetail.answers.hint')}</p>
        </div>
        <div className="grid gap-4 lg:grid-cols-2 lg:gap-6">
          {responses.map((response) => (
            <VideoCard
              key={response.id}
              {...answerCard(t, {
                ...common,
                response,
                customerName: testimonial.customer_name,
                busy,
                on: {
                  intro: () => onDialog({ kind: 'intro', response }),
                  subtitles: () => onDialog({ kind: 'subtitles', response }),
                  view: () => onDialog({ kind: 'view', response }),
                  export: () => onDialog({ kind: 'export', response }),
                  regenerate: () => onDialog({ kind: 'regenerate', response }),
                  trim: () => onDialog({ kind: 'trim', response }),
                },
              })}
            />
          ))}
        </div>
      </section>
    </>
  );
}

/** Before any merge: what merging does and the button that starts it (spec §4: 'Merge'). Test id `merge-prompt`. */
function MergePrompt({ count, busy, locked, onMerge }: { count: number; busy: boolean; locked: string | null; onMerge: () => void }) {
  const { t } = useTranslation();
  return (
    <div
      className="flex flex-col gap-4 rounded-card border border-dashed border-gray-300 bg-white p-4 sm:flex-row sm:items-center sm:p-5"
      data-testid="merge-prompt"
    >
      <span className="flex size-10 shrink-0 items-center justify-center rounded-card bg-brand-50 text-brand-700 ring-1 ring-brand-200">
        <MergeIcon className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <h2 className="text-base font-semibold text-gray-900">{t('testimonialDetail.merged.promptTitle')}</h2>
        <p className="mt-1 text-sm text-gray-600">{t('testimonialDetail.merged.promptDescription', { count })}</p>
        {locked && (
          <div className="mt-2">
            <StudioLockedNote text={locked} />
          </div>
        )}
      </div>
      <Button leadingIcon={<MergeIcon className="size-4" />} disabled={busy} onClick={onMerge} data-testid="action-merge" className="shrink-0">
        {t('testimonialDetail.actions.merge')}
      </Button>
    </div>
  );
}
