import { useTranslation } from 'react-i18next';
import { HammerIcon } from '../../components/icons';
import { PlaceholderPage } from '../../components/placeholder-page';
import { Seo } from '../../components/seo';
import { paths } from '../../lib/paths';

type TScreen = 'testimonials' | 'testimonialDetail' | 'settings' | 'payment' | 'underConstruction';

/** A dashboard screen's frame until the screen itself arrives (later issues); never indexed. */
function DashboardPlaceholder({ screen }: { screen: TScreen }) {
  const { t } = useTranslation();
  const title = t(`dashboard.screens.${screen}.title`);
  const description = t(`dashboard.screens.${screen}.description`);
  const underConstruction = screen === 'underConstruction';
  return (
    <>
      <Seo title={title} description={description} robots="noindex" />
      <PlaceholderPage
        title={title}
        description={description}
        icon={underConstruction ? <HammerIcon className="size-6" /> : undefined}
        label={underConstruction ? null : undefined}
        actionTo={paths.dashboard.root}
        actionLabel={t('dashboard.common.backToDashboard')}
      />
    </>
  );
}

export function TestimonialsScreen() {
  return <DashboardPlaceholder screen="testimonials" />;
}
export function TestimonialDetailScreen() {
  return <DashboardPlaceholder screen="testimonialDetail" />;
}
export function SettingsScreen() {
  return <DashboardPlaceholder screen="settings" />;
}
export function PaymentScreen() {
  return <DashboardPlaceholder screen="payment" />;
}
/** Any dashboard path that matches no screen (spec: 'page not found' placeholder, under construction). */
export function UnderConstructionScreen() {
  return <DashboardPlaceholder screen="underConstruction" />;
}
