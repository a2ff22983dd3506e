import { useRecordingT } from '../../../i18n/recording-i18n';
import { BRAND_NAME } from '../../../lib/brand';

/**
 * The recording page's metadata, hoisted into <head> by React 19: its title, description, and never
 * indexed. A private link has no social tags (the app's `Seo` brings them, and react-i18next with
 * them; docs/decisions/139): chat apps that preview a link read the HTML, which the script never
 * reaches anyway.
 */
export function RecordingHead({ title, description }: { title: string; description?: string }) {
  const { t } = useRecordingT();
  return (
    <>
      <title>{`${title} | ${BRAND_NAME}`}</title>
      <meta name="description" content={description ?? t('meta.defaultDescription')} />
      <meta name="robots" content="noindex, nofollow" />
    </>
  );
}
