import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TTestimonialRequest } from '../../../../contract/api/testimonials.schema.js';
import { Button, ButtonLink } from '../../../components/button';
import { Card } from '../../../components/card';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';
import { ArrowLeftIcon, CoinsIcon, CompassIcon, InfoIcon, LockIcon, VideoIcon } from '../../../components/icons';
import { Skeleton } from '../../../components/skeleton';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { BackLink, Header } from './detail-header';

/*
 * The states of the detail page other than the studio itself (spec §7, §8): loading, not found, load
 * error with retry, no credits, locked until paid, and no answers yet.
 */

/** The shape of the page while the detail loads. Test id `testimonial-detail-loading`. */
export function LoadingSkeleton() {
  const { t } = useTranslation();
  return (
    <div aria-busy="true" aria-live="polite" data-testid="testimonial-detail-loading">
      <span className="sr-only">{t('testimonialDetail.loading')}</span>
      <div className="mb-8 flex flex-col gap-3">
        <Skeleton className="h-4 w-40" />
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-4 w-80 max-w-full" />
      </div>
      <Skeleton className="mb-8 h-24 w-full rounded-card" />
      <div className="grid gap-4 lg:grid-cols-2 lg:gap-6">
        {[0, 1].map((card) => (
          <div key={card} className="overflow-hidden rounded-card border border-gray-200 bg-white">
            <div className="flex gap-3 p-4">
              <Skeleton className="size-7 rounded-full" />
              <div className="flex flex-1 flex-col gap-2">
                <Skeleton className="h-3 w-20" />
                <Skeleton className="h-4 w-3/4" />
              </div>
            </div>
            <Skeleton className="aspect-video w-full rounded-none" />
            <div className="flex gap-2 p-4">
              <Skeleton className="h-8 w-28" />
              <Skeleton className="h-8 w-32" />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}

function Notice({
  icon,
  title,
  description,
  action,
  testId,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  action?: ReactNode;
  testId: string;
}) {
  return (
    <Card padding="none" data-testid={testId}>
      <EmptyState headingLevel="h1" icon={icon} title={title} description={<p className="text-sm">{description}</p>} action={action} />
    </Card>
  );
}

/** The testimonial does not exist (or the id is malformed). Test id `testimonial-not-found`. */
export function NotFound() {
  const { t } = useTranslation();
  return (
    <Notice
      testId="testimonial-not-found"
      icon={<CompassIcon className="size-6" />}
      title={t('testimonialDetail.notFound.title')}
      description={t('testimonialDetail.notFound.description')}
      action={
        <ButtonLink to={paths.dashboard.testimonials} variant="secondary" leadingIcon={<ArrowLeftIcon className="size-4" />}>
          {t('testimonialDetail.back')}
        </ButtonLink>
      }
    />
  );
}

/** The detail call failed: what happened and a retry. Test id `testimonial-detail-error`. */
export function LoadError({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="mb-6">
        <BackLink />
      </div>
      <ErrorState message={t('testimonialDetail.loadError')} onRetry={onRetry} retrying={retrying} data-testid="testimonial-detail-error" />
    </>
  );
}

/** A completed, unpaid testimonial and no credit left: the way to buy some. Test id `no-credits`. */
export function NoCredits() {
  const { t } = useTranslation();
  return (
    <>
      <div className="mb-6">
        <BackLink />
      </div>
      <Notice
        testId="no-credits"
        icon={<CoinsIcon className="size-6" />}
        title={t('testimonialDetail.noCredits.title')}
        description={t('testimonialDetail.noCredits.description')}
        action={
          <ButtonLink to={paths.dashboard.payment} leadingIcon={<CoinsIcon className="size-4" />} data-testid="no-credits-buy">
            {t('testimonialDetail.noCredits.buy')}
          </ButtonLink>
        }
      />
    </>
  );
}

/**
 * Completed and unpaid: the header and the offer to unlock it. Without `onPay` (a viewer, who cannot
 * spend a credit) the reason shows where the button would be. Test ids `testimonial-locked`,
 * `pay-to-view`, `pay-role-required`.
 */
export function Locked({ testimonial, onPay }: { testimonial: TTestimonialRequest; onPay: (() => void) | null }) {
  const { t } = useTranslation();
  return (
    <>
      <Header testimonial={testimonial} />
      <Card padding="none" data-testid="testimonial-locked">
        <EmptyState
          icon={<LockIcon className="size-6" />}
          title={t('testimonialDetail.locked.title')}
          description={<p className="text-sm">{t('testimonialDetail.locked.description', { count: testimonial.testimonial_responses.length })}</p>}
          action={
            onPay ? (
              <Button leadingIcon={<CoinsIcon className="size-4" />} onClick={onPay} data-testid="pay-to-view">
                {t('testimonialDetail.pay.action')}
              </Button>
            ) : (
              <p
                role="note"
                className="mx-auto flex max-w-sm items-start gap-2 rounded-control bg-gray-50 px-3 py-2 text-left text-sm text-gray-700 ring-1 ring-gray-200 ring-inset"
                data-testid="pay-role-required"
              >
                <InfoIcon className="mt-0.5 size-4 shrink-0 text-gray-500" />
                <span>{t('errors.reasons.role_required_editor')}</span>
              </p>
            )
          }
        />
      </Card>
    </>
  );
}

/** No answer recorded (yet, or ever): what it means and the way to the request. Test id `testimonial-empty`. */
export function NoAnswers({ testimonial }: { testimonial: TTestimonialRequest }) {
  const { t } = useTranslation();
  const state = testimonial.status === 'completed' ? 'completed' : testimonial.status === 'pending' ? 'pending' : 'expired';
  return (
    <>
      <Header testimonial={testimonial} />
      <Card padding="none" data-testid="testimonial-empty">
        <EmptyState
          icon={<VideoIcon className="size-6" />}
          title={t(`testimonialDetail.empty.${state}.title`)}
          description={<p className="text-sm">{t(`testimonialDetail.empty.${state}.description`, { date: formatDate(testimonial.expires_at) })}</p>}
          action={
            <ButtonLink to={paths.dashboard.request(testimonial.id)} variant="secondary">
              {t('testimonialDetail.empty.openRequest')}
            </ButtonLink>
          }
        />
      </Card>
    </>
  );
}
