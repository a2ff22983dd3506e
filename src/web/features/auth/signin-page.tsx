import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../components/placeholder-page';
import { PublicShell } from '../../components/public-shell';
import { Seo } from '../../components/seo';
import { BRAND_NAME } from '../../lib/brand';

export function SigninPage() {
  const { t } = useTranslation();
  const title = t('auth.signin.title');
  const description = t('auth.signin.description', { brand: BRAND_NAME });
  return (
    <PublicShell>
      <Seo title={title} description={description} robots="index" />
      <PlaceholderPage title={title} description={description} />
    </PublicShell>
  );
}
