import { useTranslation } from 'react-i18next';
import { CREDIT_PACKAGES, formatPrice } from '../../../../contract/constants.js';
import type { CreditPackage } from '../../../../contract/constants.js';
import { Badge } from '../../../components/badge';
import { ButtonLink } from '../../../components/button';
import { Container } from '../../../components/container';
import { useLanguage } from '../../../i18n/use-language';
import { cn } from '../../../lib/cn';
import { formatList, formatPercent } from '../../../lib/format';
import { landingSections, paths } from '../../../lib/paths';
import { SectionHeading } from './section-heading';

function PackageCard({ pkg }: { pkg: CreditPackage }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const name = t(`landing.pricing.packages.${pkg.id}`);
  return (
    <li
      data-package={pkg.id}
      data-featured={pkg.featured || undefined}
      className={cn(
        'relative flex flex-col rounded-card bg-white p-6',
        pkg.featured ? 'border border-brand-600 ring-1 ring-brand-600' : 'border border-gray-200',
        'sm:max-lg:last:col-span-2',
      )}
    >
      {pkg.featured && (
        <Badge tone="brand" className="absolute -top-3 left-6">
          {t('landing.pricing.recommended')}
        </Badge>
      )}
      {/* Phones: name and price side by side; wider: stacked. */}
      <div className="flex items-start justify-between gap-4 sm:block">
        <div>
          <h3 className="text-base font-semibold text-gray-950">{name}</h3>
          <p className="mt-1 text-sm text-gray-600 tabular-nums">
            {t('landing.pricing.credits', { count: pkg.credits })}
          </p>
        </div>
        <div className="text-right sm:mt-6 sm:text-left">
          <p className="text-2xl font-semibold tracking-tight text-gray-950 tabular-nums">
            {formatPrice(pkg.totalPrice, language)}
          </p>
          <p className="mt-1 text-sm text-gray-600 tabular-nums">
            {t('landing.pricing.perVideo', { price: formatPrice(pkg.unitPrice, language) })}
          </p>
        </div>
      </div>
      <div className="mt-4 flex min-h-6 flex-wrap items-center gap-2 max-sm:empty:hidden">
        {pkg.discountPercent > 0 && (
          <Badge tone="neutral">
            {t('landing.pricing.save', { percent: formatPercent(pkg.discountPercent, language) })}
          </Badge>
        )}
      </div>

      <ButtonLink
        to={paths.signup}
        variant={pkg.featured ? 'primary' : 'secondary'}
        fullWidth
        className="mt-6"
        aria-label={t('landing.pricing.chooseLabel', { name })}
        data-testid={`buy-${pkg.id}`}
      >
        {t('landing.pricing.choose')}
      </ButtonLink>
    </li>
  );
}

export function PricingSection() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const lowestUnitPrice = Math.min(...CREDIT_PACKAGES.map((pkg) => pkg.unitPrice));
  const discounts = CREDIT_PACKAGES.filter((pkg) => pkg.discountPercent > 0).map((pkg) =>
    formatPercent(pkg.discountPercent, language),
  );

  return (
    <section id={landingSections.pricing} aria-labelledby="pricing-title" className="render-when-visible scroll-mt-16 py-20 sm:py-28">
      <Container>
        <SectionHeading
          id="pricing-title"
          eyebrow={t('landing.pricing.eyebrow')}
          title={t('landing.pricing.title')}
          subtitle={t('landing.pricing.subtitle', {
            price: formatPrice(lowestUnitPrice, language),
            discounts: formatList(discounts, language),
          })}
        />
        <ul className="mt-12 grid gap-4 sm:mt-16 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
          {CREDIT_PACKAGES.map((pkg) => (
            <PackageCard key={pkg.id} pkg={pkg} />
          ))}
        </ul>
        <div className="mx-auto mt-10 max-w-2xl space-y-2 text-center text-sm text-pretty text-gray-600">
          <p>{t('landing.pricing.included')}</p>
          <p>{t('landing.pricing.creditRule')}</p>
        </div>
      </Container>
    </section>
  );
}
