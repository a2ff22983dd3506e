import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { TAKEN_OVER_EVENT } from '../../app/start-on-intent';
import { Seo } from '../../components/seo';
import { SkipLink } from '../../components/skip-link';
import { useLanguage } from '../../i18n/use-language';
import { FeaturesSection } from './components/features-section';
import { FinalCta } from './components/final-cta';
import { Hero } from './components/hero';
import { HowItWorksSection } from './components/how-it-works-section';
import { LandingFooter } from './components/landing-footer';
import { LandingHeader } from './components/landing-header';
import { PricingSection } from './components/pricing-section';
import { demoMedia } from './demo-media';

/** The public marketing page (/). */
export function LandingPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  // The page's HTML is now the app's: a button pressed before is pressed again (app/start-on-intent.ts).
  useEffect(() => {
    document.dispatchEvent(new Event(TAKEN_OVER_EVENT));
  }, []);
  return (
    <div className="flex min-h-dvh flex-col">
      <Seo
        title={t('landing.meta.title')}
        description={t('landing.meta.description')}
        robots="index"
        videoPath={demoMedia(language).video}
      />
      <SkipLink />
      <LandingHeader />
      <main id="main" className="flex-1">
        <Hero />
        <FeaturesSection />
        <HowItWorksSection />
        <PricingSection />
        <FinalCta />
      </main>
      <LandingFooter />
    </div>
  );
}
