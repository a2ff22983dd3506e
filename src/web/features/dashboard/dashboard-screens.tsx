import { useTranslation } from 'react-i18next';
import { HammerIcon } from '../../components/icons';
import { PlaceholderPage } from '../../components/placeholder-page';
import { Seo } from '../../components/seo';
import { paths } from '../../lib/paths';

/** Any dashboard path that matches no screen (spec: 'page not found' placeholder, under construction). */
export function UnderConstructionScreen() {
  const { t } = useTranslation();
  const title = t('dashboard.screens.underConstruction.title');
  const description = t('dashboard.screens.underConstruction.description');
  return (
    <>
      <Seo title={title} description={description} robots="noindex" />
      <PlaceholderPage
        title={title}
        description={description}
        icon={<HammerIcon className="size-6" />}
        label={null}
        actionTo={paths.dashboard.root}
        actionLabel={t('dashboard.common.backToDashboard')}
      />
    </>
  );
}
