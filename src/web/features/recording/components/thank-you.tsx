import { useRecordingT } from '../../../i18n/recording-i18n';
import { CheckIcon } from '../../../components/icons';
import { useFocusOnMount } from './use-focus-on-mount';

/**
 * The screen that replaces the page once the server has the testimonial (spec §2, §4). It thanks the
 * customer for the business and says they may leave: no link to our site and no sign-up offer, which
 * the specification had and issue 27 took out (the customer's pages belong to the business). A customer
 * who gave no e-mail address gets no receipt: their private testimonial page is offered here instead
 * (issue 29), to keep, since nobody can send it to them later.
 */
export function ThankYou({ name, company, pageUrl = null }: { name: string; company: string; pageUrl?: string | null }) {
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
      {pageUrl && (
        <div className="mt-8 w-full rounded-xl border border-gray-200 bg-white p-4 text-left shadow-sm" data-testid="thank-you-page">
          <p className="text-sm text-gray-700">{t('recording.thankYou.pageIntro', { company })}</p>
          <a href={pageUrl} className="mt-2 block break-all text-sm font-medium text-brand-700 underline underline-offset-2" data-testid="thank-you-page-link">
            {pageUrl}
          </a>
          <p className="mt-2 text-xs text-gray-500">{t('recording.thankYou.pageKeep')}</p>
        </div>
      )}
      <p className="mt-8 text-sm text-gray-500" data-testid="thank-you-close">
        {t('recording.thankYou.close')}
      </p>
    </div>
  );
}
