import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TLanguage } from '../../../../contract/constants.js';
import { ButtonLink } from '../../../components/button';
import { Container } from '../../../components/container';
import { ArrowRightIcon, CheckIcon } from '../../../components/icons';
import { useLanguage } from '../../../i18n/use-language';
import { cn } from '../../../lib/cn';
import { landingSectionHref, paths } from '../../../lib/paths';
import { DemoVideo } from './demo-video';

/** The demo in the language the visitor is not reading: a small player that grows once started. */
function OtherLanguageDemo({ lang }: { lang: TLanguage }) {
  const { t } = useTranslation();
  const [started, setStarted] = useState(false);
  return (
    <div
      className={cn(
        'mx-auto mt-4 flex items-center gap-4 rounded-card border border-gray-200 bg-white p-2 text-left',
        started ? 'max-w-3xl flex-col items-stretch' : 'max-w-md pr-4',
      )}
    >
      <DemoVideo
        lang={lang}
        variant="secondary"
        onStart={() => setStarted(true)}
        className={started ? 'w-full' : 'w-28 shrink-0 sm:w-36'}
      />
      <div lang={lang} className={cn('min-w-0', started && 'px-2 pb-1')}>
        <p className="text-sm font-semibold text-gray-900">{t(`landing.demo.otherLanguage.${lang}`)}</p>
        <p className="mt-0.5 text-sm text-gray-600">{t(`landing.demo.otherLanguageHint.${lang}`)}</p>
      </div>
    </div>
  );
}

const HIGHLIGHTS = ['noInstall', 'duration', 'languages'] as const;

export function Hero() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const other: TLanguage = language === 'fr' ? 'en' : 'fr';

  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
      <div
        aria-hidden="true"
        className="absolute inset-x-0 top-0 -z-10 h-[36rem] bg-[radial-gradient(ellipse_60%_60%_at_50%_0%,var(--color-brand-50),transparent)]"
      />
      <Container className="pt-12 pb-16 sm:pt-20 sm:pb-24 lg:pt-24">
        <div className="mx-auto max-w-3xl text-center">
          <p className="inline-flex items-center rounded-full border border-gray-200 bg-white px-3 py-1 text-xs font-medium text-gray-600 sm:text-sm">
            {t('landing.hero.eyebrow')}
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-2xl font-semibold tracking-tight text-balance text-gray-950 sm:text-3xl"
          >
            {t('landing.hero.title')}
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-base text-pretty text-gray-600 sm:text-lg">
            {t('landing.hero.subtitle')}
          </p>
          <div className="mt-8 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
            <ButtonLink to={paths.signup} size="lg" trailingIcon={<ArrowRightIcon className="size-4" />}>
              {t('landing.hero.primaryCta')}
            </ButtonLink>
            <ButtonLink to={landingSectionHref('pricing')} size="lg" variant="secondary">
              {t('landing.hero.secondaryCta')}
            </ButtonLink>
          </div>
          <p className="mt-4 text-sm text-gray-500">{t('landing.hero.note')}</p>
        </div>

        <div aria-label={t('landing.demo.sectionLabel')} role="group" className="mx-auto mt-12 max-w-5xl sm:mt-16">
          <div className="rounded-card border border-gray-200 bg-white/60 p-1.5 sm:p-2">
            <DemoVideo key={`primary-${language}`} lang={language} variant="primary" />
          </div>
          <OtherLanguageDemo key={`secondary-${other}`} lang={other} />
        </div>

        <ul
          aria-label={t('landing.hero.highlights.label')}
          className="mx-auto mt-10 flex w-fit max-w-3xl flex-col items-start justify-center gap-x-8 gap-y-3 text-sm text-gray-600 sm:w-auto sm:flex-row sm:flex-wrap sm:items-center"
        >
          {HIGHLIGHTS.map((key) => (
            <li key={key} className="flex items-center gap-2">
              <CheckIcon className="size-4 shrink-0 text-gray-900" />
              {t(`landing.hero.highlights.${key}`)}
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}
