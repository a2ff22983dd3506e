import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TTestimonialRequest } from '../../../../contract/api/testimonials.schema.js';
import { Badge } from '../../../components/badge';
import { ArrowLeftIcon, MailIcon, VideoIcon } from '../../../components/icons';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { ViaLink } from '../collection/via-link';

/** Back to the list of testimonials. Test id `testimonial-detail-back`. */
export function BackLink() {
  const { t } = useTranslation();
  return (
    <Link
      to={paths.dashboard.testimonials}
      data-testid="testimonial-detail-back"
      className="inline-flex items-center gap-1.5 text-sm font-medium text-gray-600 hover:text-gray-900"
    >
      <ArrowLeftIcon className="size-4" />
      {t('testimonialDetail.back')}
    </Link>
  );
}

function StatusBadge({ status }: { status: TTestimonialRequest['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge tone={status} dot data-testid="testimonial-status" data-status={status}>
      {t(`requests.status.${status}`)}
    </Badge>
  );
}

/** The customer, their position, status, e-mail, date and number of answers, with the page's actions. */
export function Header({ testimonial, actions }: { testimonial: TTestimonialRequest; actions?: ReactNode }) {
  const { t } = useTranslation();
  const submitted = testimonial.status === 'completed' ? (testimonial.submitted_at ?? testimonial.updated_at) : null;
  return (
    <header className="mb-6 sm:mb-8" data-testid="testimonial-header">
      <div className="mb-3">
        <BackLink />
      </div>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <h1 className="text-xl font-semibold tracking-tight break-words text-gray-950" data-testid="testimonial-title">
              {testimonial.customer_name}
            </h1>
            <StatusBadge status={testimonial.status} />
          </div>
          {testimonial.customer_position && (
            <p className="mt-1 text-sm text-gray-700" data-testid="testimonial-position">
              {testimonial.customer_position}
            </p>
          )}
          <ViaLink linkId={testimonial.collection_link_id} className="mt-1" />
          <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-2 text-sm">
            <div className="flex min-w-0 items-center gap-1.5">
              <dt className="sr-only">{t('testimonialDetail.header.email')}</dt>
              <MailIcon className="size-4 shrink-0 text-gray-500" />
              <dd className="min-w-0 truncate">
                <a
                  href={`mailto:${testimonial.customer_email}`}
                  className="text-gray-700 hover:text-gray-950 hover:underline"
                  data-testid="testimonial-email"
                >
                  {testimonial.customer_email}
                </a>
              </dd>
            </div>
            <div className="flex items-center gap-1.5 text-gray-700">
              <dt className="text-gray-500">
                {t(submitted ? 'testimonialDetail.header.submitted' : 'testimonialDetail.header.requested')}
              </dt>
              <dd className="tabular-nums" data-testid="testimonial-date">
                {formatDate(submitted ?? testimonial.created_at)}
              </dd>
            </div>
            {testimonial.testimonial_responses.length > 0 && (
              <div className="flex items-center gap-1.5 text-gray-700">
                <dt className="sr-only">{t('testimonialDetail.header.answers')}</dt>
                <VideoIcon className="size-4 shrink-0 text-gray-500" />
                <dd>{t('testimonialDetail.header.answerCount', { count: testimonial.testimonial_responses.length })}</dd>
              </div>
            )}
          </dl>
        </div>
        {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
      </div>
    </header>
  );
}
