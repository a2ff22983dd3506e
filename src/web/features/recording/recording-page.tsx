import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../components/placeholder-page';
import { PublicShell } from '../../components/public-shell';
import { Seo } from '../../components/seo';

/** The customer's recording page (/testimonial/submit/:token); never indexed. */
export function RecordingPage() {
  const { t } = useTranslation();
  const title = t('recording.title');
  const description = t('recording.description');
  return (
    <PublicShell>
      <Seo title={title} description={description} robots="noindex" />
      <PlaceholderPage title={title} description={description} />
    </PublicShell>
  );
}
