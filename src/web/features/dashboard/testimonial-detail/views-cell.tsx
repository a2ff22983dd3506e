import { useTranslation } from 'react-i18next';
import type { TTestimonialRequestSafe } from '../../../../contract/api/testimonials.schema.js';
import { intlLocale } from '../../../lib/format';

/**
 * The Views column of the testimonials list (issue 19): the plays of a testimonial's published videos,
 * '—' for a testimonial that cannot have any (not unlocked) or while the plays are not known.
 */
export function ViewsCell({ testimonial, plays }: { testimonial: TTestimonialRequestSafe; plays: Map<string, number> | undefined }) {
  const { t, i18n } = useTranslation();
  if (!testimonial.paid || !plays) return <span className="text-gray-400" aria-hidden="true">—</span>;
  const value = new Intl.NumberFormat(intlLocale(i18n.language)).format(plays.get(testimonial.id) ?? 0);
  return (
    <span className="tabular-nums text-gray-900" data-testid="testimonial-views" aria-label={t('credits.testimonials.viewsLabel', { name: testimonial.customer_name, value })}>
      {value}
    </span>
  );
}
