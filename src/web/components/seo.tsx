import { useTranslation } from 'react-i18next';
import { BRAND_NAME } from '../lib/brand';
import { usePathname } from '../lib/navigation';
import { OG_LOCALES } from '../i18n/language';
import { useLanguage } from '../i18n/use-language';

export const OG_IMAGE = { path: '/og-image.png', width: 1200, height: 630 } as const;
export const OG_VIDEO_SIZE = { width: 1280, height: 720 } as const;

export interface SeoProps {
  /** The page's own title; the document title becomes '{title} | {brand}'. */
  title: string;
  /** Meta description (defaults to the product's description). */
  description?: string;
  /** 'index' → 'index, follow' (public pages); 'noindex' → 'noindex, nofollow'. */
  robots?: 'index' | 'noindex';
  /** An absolute-path video for og:video (landing page), e.g. '/media/demo-en.mp4'. */
  videoPath?: string;
}

/**
 * The page's metadata, rendered where the page is and hoisted into <head> by React 19.
 * index.html carries no title or social tags, so each page owns exactly one set.
 */
export function Seo({ title, description, robots = 'index', videoPath }: SeoProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const pathname = usePathname();
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const url = origin + pathname;
  const fullTitle = `${title} | ${BRAND_NAME}`;
  const text = description ?? t('meta.defaultDescription');
  const image = origin + OG_IMAGE.path;
  const robotsContent = robots === 'index' ? 'index, follow' : 'noindex, nofollow';
  const otherLocales = Object.entries(OG_LOCALES)
    .filter(([lng]) => lng !== language)
    .map(([, locale]) => locale);

  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={text} />
      <meta name="robots" content={robotsContent} />
      <link rel="canonical" href={url} />

      <meta property="og:site_name" content={BRAND_NAME} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={text} />
      <meta property="og:type" content="website" />
      <meta property="og:url" content={url} />
      <meta property="og:locale" content={OG_LOCALES[language]} />
      {otherLocales.map((locale) => (
        <meta key={locale} property="og:locale:alternate" content={locale} />
      ))}
      <meta property="og:image" content={image} />
      <meta property="og:image:width" content={String(OG_IMAGE.width)} />
      <meta property="og:image:height" content={String(OG_IMAGE.height)} />
      <meta property="og:image:alt" content={t('meta.ogImageAlt', { brand: BRAND_NAME })} />
      {videoPath && (
        <>
          <meta property="og:video" content={origin + videoPath} />
          <meta property="og:video:type" content="video/mp4" />
          <meta property="og:video:width" content={String(OG_VIDEO_SIZE.width)} />
          <meta property="og:video:height" content={String(OG_VIDEO_SIZE.height)} />
        </>
      )}

      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={fullTitle} />
      <meta name="twitter:description" content={text} />
      <meta name="twitter:image" content={image} />
    </>
  );
}
