import { useTranslation } from 'react-i18next';
import { Container } from '../../../components/container';
import { landingSections } from '../../../lib/paths';
import { SectionHeading } from './section-heading';

const STEPS = ['questions', 'link', 'record', 'share'] as const;

export function HowItWorksSection() {
  const { t } = useTranslation();
  return (
    <section
      id={landingSections.howItWorks}
      aria-labelledby="how-it-works-title"
      className="render-when-visible scroll-mt-16 border-y border-gray-200 bg-gray-50 py-20 sm:py-28"
    >
      <Container>
        <SectionHeading
          id="how-it-works-title"
          eyebrow={t('landing.howItWorks.eyebrow')}
          title={t('landing.howItWorks.title')}
          subtitle={t('landing.howItWorks.subtitle')}
        />
        <div className="relative mt-12 sm:mt-16">
          {/* The line joining the four numbers on wide screens. */}
          <div
            aria-hidden="true"
            className="absolute top-5 right-[12.5%] left-[12.5%] hidden h-px bg-gray-300 lg:block"
          />
          <ol className="relative grid gap-10 sm:grid-cols-2 sm:gap-x-8 lg:grid-cols-4">
            {STEPS.map((key, index) => (
              <li key={key} className="relative flex gap-4 sm:flex-col sm:gap-0 lg:items-center lg:text-center">
                <span
                  aria-hidden="true"
                  className="relative flex size-10 shrink-0 items-center justify-center rounded-full border border-gray-300 bg-white text-sm font-semibold text-gray-950 tabular-nums"
                >
                  {index + 1}
                </span>
                <div className="sm:mt-6">
                  <p className="sr-only">{t('landing.howItWorks.stepLabel', { number: index + 1 })}</p>
                  <h3 className="text-base font-semibold text-gray-950">
                    {t(`landing.howItWorks.steps.${key}.title`)}
                  </h3>
                  <p className="mt-2 text-base text-gray-600">{t(`landing.howItWorks.steps.${key}.description`)}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </Container>
    </section>
  );
}
