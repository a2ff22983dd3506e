import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Button } from '../../../components/button';
import { ErrorState } from '../../../components/error-state';
import { ArrowLeftIcon, ReceiptIcon } from '../../../components/icons';
import { Seo } from '../../../components/seo';
import { Skeleton } from '../../../components/skeleton';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { cn } from '../../../lib/cn';
import { useConsentRecord } from '../api/get-consent-record';
import { eventDetails, recordEvents } from './consent-record';
import { EVENT_DOTS } from './consent-record-section';

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0 break-inside-avoid">
      <dt className="text-xs font-medium text-gray-500">{label}</dt>
      <dd className="mt-0.5 text-sm break-words text-gray-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/**
 * The printable consent record of one testimonial (/dashboard/testimonials/{id}/consent-record, issue 29):
 * the company and the customer, the consent as accepted (text, version, time, address, browser, its
 * withdrawal), and every moment since in a table, from the same answer as the JSON download. Outside the
 * dashboard's frame; a Print button, and print styles that keep only the record. Test ids
 * `consent-record-page`, `consent-record-page-print`, `consent-record-page-back`, `consent-record-text`,
 * `consent-record-row` (data-kind).
 */
export function ConsentRecordPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const record = useConsentRecord(id);
  const data = record.data;
  const events = data ? recordEvents(data) : [];

  return (
    <div className="min-h-dvh bg-gray-50 print:min-h-0 print:bg-white">
      <Seo title={data ? t('consentRecord.title', { name: data.testimonial.customer_name }) : t('consentRecord.heading')} robots="noindex" />
      <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:px-6 sm:py-10 print:max-w-none print:p-0">
        <div className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
          <Link
            to={paths.dashboard.testimonial(id)}
            className="inline-flex items-center gap-1.5 text-sm font-medium text-gray-600 hover:text-gray-900"
            data-testid="consent-record-page-back"
          >
            <ArrowLeftIcon className="size-4" />
            {t('consentRecord.back')}
          </Link>
          <Button leadingIcon={<ReceiptIcon className="size-4" />} onClick={() => window.print()} disabled={!data} data-testid="consent-record-page-print">
            {t('consentRecord.print')}
          </Button>
        </div>
        {record.isPending ? (
          <div aria-busy="true" className="flex flex-col gap-4 rounded-card border border-gray-200 bg-white p-6">
            <span className="sr-only">{t('consentRecord.loading')}</span>
            <Skeleton className="h-7 w-64" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : record.isError || !data ? (
          <ErrorState message={t('testimonialDetail.record.loadError')} onRetry={() => void record.refetch()} retrying={record.isFetching} />
        ) : (
          <article
            className="rounded-card border border-gray-200 bg-white p-5 sm:p-8 print:rounded-none print:border-0 print:p-0"
            data-testid="consent-record-page"
            aria-labelledby="consent-record-heading"
          >
            <header className="border-b border-gray-200 pb-5">
              <p className="text-sm font-medium text-gray-500">{data.company.name}</p>
              <h1 id="consent-record-heading" className="mt-1 text-2xl font-semibold tracking-tight text-gray-950">
                {t('consentRecord.heading')}
              </h1>
              <p className="mt-1 text-base text-gray-700">{data.testimonial.customer_name}</p>
            </header>

            <dl className="grid gap-4 border-b border-gray-200 py-5 sm:grid-cols-2 print:grid-cols-2">
              <Field label={t('consentRecord.company')}>{data.company.name}</Field>
              <Field label={t('consentRecord.customer')}>{data.testimonial.customer_name}</Field>
              <Field label={t('consentRecord.email')}>{data.testimonial.customer_email ?? t('consentRecord.noEmail')}</Field>
              <Field label={t('consentRecord.language')}>{t(`consentRecord.languages.${data.testimonial.language}`)}</Field>
              <Field label={t('consentRecord.submitted')}>
                {data.testimonial.submitted_at ? formatDateTime(data.testimonial.submitted_at) : t('consentRecord.notSubmitted')}
              </Field>
            </dl>

            <section className="border-b border-gray-200 py-5" aria-labelledby="consent-record-consent">
              <h2 id="consent-record-consent" className="text-base font-semibold text-gray-900">
                {t('consentRecord.consent')}
              </h2>
              {data.consent ? (
                <>
                  <blockquote
                    className="mt-3 rounded-control bg-gray-50 px-4 py-3 text-sm whitespace-pre-line text-gray-900 ring-1 ring-gray-200 print:bg-white"
                    lang={data.consent.language}
                    data-testid="consent-record-text"
                  >
                    {data.consent.text}
                  </blockquote>
                  <dl className="mt-4 grid gap-4 sm:grid-cols-2 print:grid-cols-2">
                    <Field label={t('consentRecord.acceptedAt')}>{formatDateTime(data.consent.acceptedAt)}</Field>
                    <Field label={t('consentRecord.version')}>{data.consent.textVersion}</Field>
                    <Field label={t('consentRecord.ip')}>{data.consent.ip}</Field>
                    <Field label={t('consentRecord.browser')}>{data.consent.userAgent ?? '—'}</Field>
                    {data.consent.withdrawnAt && (
                      <Field label={t('consentRecord.withdrawnAt')} testId="consent-record-withdrawn">
                        {formatDateTime(data.consent.withdrawnAt)}
                      </Field>
                    )}
                    {data.consent.withdrawnAt && data.consent.withdrawnIp && (
                      <Field label={t('consentRecord.withdrawnIp')}>{data.consent.withdrawnIp}</Field>
                    )}
                  </dl>
                </>
              ) : (
                <p className="mt-2 text-sm text-gray-600">{t('consentRecord.noConsent')}</p>
              )}
            </section>

            <section className="py-5" aria-labelledby="consent-record-history">
              <h2 id="consent-record-history" className="text-base font-semibold text-gray-900">
                {t('consentRecord.history')}
              </h2>
              <table className="mt-3 w-full border-collapse text-left text-sm">
                <thead>
                  <tr className="border-b border-gray-200 text-xs text-gray-500">
                    <th scope="col" className="py-2 pr-4 font-medium whitespace-nowrap">
                      {t('consentRecord.columns.when')}
                    </th>
                    <th scope="col" className="py-2 pr-4 font-medium">
                      {t('consentRecord.columns.event')}
                    </th>
                    <th scope="col" className="hidden py-2 font-medium sm:table-cell print:table-cell">
                      {t('consentRecord.columns.details')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {events.map((event, index) => {
                    const details = eventDetails(t, event);
                    return (
                      <tr key={`${event.kind}-${event.at}-${index}`} className="break-inside-avoid border-b border-gray-100 align-top" data-testid="consent-record-row" data-kind={event.kind}>
                        <td className="py-2 pr-4 whitespace-nowrap text-gray-700 tabular-nums">
                          <time dateTime={event.at}>{formatDateTime(event.at)}</time>
                        </td>
                        <td className="py-2 pr-4 text-gray-900 sm:whitespace-nowrap print:whitespace-nowrap">
                          <span className="flex items-center gap-2">
                            <span aria-hidden="true" className={cn('size-2 shrink-0 rounded-full print:hidden', EVENT_DOTS[event.kind])} />
                            {t(`testimonialDetail.record.events.${event.kind}`)}
                          </span>
                          {/* On a phone the details go under the event. */}
                          {details.length > 0 && (
                            <span className="mt-0.5 block text-xs break-words text-gray-600 sm:hidden print:hidden">{details.join(' · ')}</span>
                          )}
                        </td>
                        <td className="hidden py-2 break-words text-gray-600 sm:table-cell print:table-cell">{details.join(' · ')}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </section>

            <footer className="border-t border-gray-200 pt-4 text-xs text-gray-500">
              {t('consentRecord.generated', { date: formatDateTime(data.generatedAt), company: data.company.name })}
            </footer>
          </article>
        )}
      </div>
    </div>
  );
}
