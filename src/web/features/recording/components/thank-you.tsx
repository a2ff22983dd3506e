import { useRecordingT } from '../../../i18n/recording-i18n';
import { CheckIcon } from '../../../components/icons';
import { useFocusOnMount } from './use-focus-on-mount';

/**
 * The screen that replaces the page once the server has the testimonial (spec §2, §4). It thanks the
 * customer for the business and says they may leave: no link to our site and no sign-up offer, which
 * the specification had and issue 27 took out (the customer's pages belong to the business).
 */
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
      <p className="mt-8 text-sm text-gray-500" data-testid="thank-you-close">
        {t('recording.thankYou.close')}
      </p>
    </div>
  );
}
