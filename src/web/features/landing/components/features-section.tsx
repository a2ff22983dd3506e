import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Container } from '../../../components/container';
import { landingSections } from '../../../lib/paths';
import { AnalyticsIcon, CollectionIcon, EditingIcon, MobileIcon, SecurityIcon, SharingIcon } from './feature-icons';
import { SectionHeading } from './section-heading';

type TFeature = 'collection' | 'editing' | 'analytics' | 'sharing' | 'mobile' | 'security';

const FEATURES: ReadonlyArray<{ key: TFeature; icon: ReactNode }> = [
  { key: 'collection', icon: <CollectionIcon /> },
  { key: 'editing', icon: <EditingIcon /> },
  { key: 'analytics', icon: <AnalyticsIcon /> },
  { key: 'sharing', icon: <SharingIcon /> },
  { key: 'mobile', icon: <MobileIcon /> },
  { key: 'security', icon: <SecurityIcon /> },
];

export function FeaturesSection() {
  const { t } = useTranslation();
  return (
    <section
      id={landingSections.features}
      aria-labelledby="features-title"
      className="render-when-visible scroll-mt-16 border-t border-gray-200 py-20 sm:py-28"
    >
      <Container>
        <SectionHeading
          id="features-title"
          eyebrow={t('landing.features.eyebrow')}
          title={t('landing.features.title')}
          subtitle={t('landing.features.subtitle')}
        />
        <ul className="mt-12 grid gap-4 sm:mt-16 sm:grid-cols-2 lg:grid-cols-3 lg:gap-6">
          {FEATURES.map(({ key, icon }) => (
            <li key={key} data-feature={key} className="rounded-card border border-gray-200 bg-white p-6 lg:p-8">
              <div className="flex size-12 items-center justify-center rounded-control border border-gray-200 bg-gray-50 text-gray-900">
                {icon}
              </div>
              <h3 className="mt-6 text-base font-semibold text-gray-950">{t(`landing.features.items.${key}.title`)}</h3>
              <p className="mt-2 text-base text-gray-600">{t(`landing.features.items.${key}.description`)}</p>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}
