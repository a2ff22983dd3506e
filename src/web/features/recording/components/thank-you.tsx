import { useRecordingT } from '../../../i18n/recording-i18n';
import { buttonClasses, ButtonLink } from '../../../components/button';
import { ArrowRightIcon, CheckIcon } from '../../../components/icons';
import { BRAND_NAME } from '../../../lib/brand';
import { paths } from '../../../lib/paths';
import { useFocusOnMount } from './use-focus-on-mount';

/** The screen that replaces the page once the server has the testimonial (spec §2, §4). */
export function ThankYou({ name, company }: { name: string; company: string }) {
  const { t } = useRecordingT();
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col items-center px-4 pt-10 text-center sm:pt-16" data-testid="thank-you">
      <div className="flex size-16 items-center justify-center rounded-full bg-completed-100 text-completed-700 animate-fade-in">
        <CheckIcon className="size-9" strokeWidth={2.25} />
      </div>
      <h1 ref={headingRef} tabIndex={-1} className="mt-6 text-2xl font-semibold tracking-tight text-gray-950 outline-none">
        {t('recording.thankYou.heading', { name })}
      </h1>
      <p className="mt-3 text-base text-gray-600">{t('recording.thankYou.body', { company })}</p>
      <a
        href={paths.home}
        target="_blank"
        rel="noopener"
        className={buttonClasses({ variant: 'secondary', size: 'lg', className: 'mt-8' })}
        data-testid="marketing-link"
      >
        {t('recording.thankYou.visit', { brand: BRAND_NAME })}
        <span className="sr-only"> {t('recording.thankYou.newTab')}</span>
        <ExternalIcon />
      </a>

      <div className="mt-12 w-full rounded-card border border-brand-200 bg-brand-50 px-6 py-7 text-left sm:px-8">
        <h2 className="text-lg font-semibold text-brand-950">{t('recording.thankYou.ctaTitle')}</h2>
        <p className="mt-2 text-base text-brand-900">{t('recording.thankYou.ctaBody', { brand: BRAND_NAME })}</p>
        <ButtonLink
          to={paths.signup}
          size="lg"
          className="mt-5"
          data-testid="signup-cta"
          trailingIcon={<ArrowRightIcon className="size-5" />}
        >
          {t('recording.thankYou.ctaButton')}
        </ButtonLink>
      </div>
    </div>
  );
}

function ExternalIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M14 4h6v6M20 4l-9 9" />
      <path d="M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </svg>
  );
}
