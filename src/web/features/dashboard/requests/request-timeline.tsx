import { useTranslation } from 'react-i18next';
import type { TTimelineEvent } from '../../../../contract/api/funnel.schema.js';
import { Card } from '../../../components/card';
import { ErrorState } from '../../../components/error-state';
import { Skeleton } from '../../../components/skeleton';
import { cn } from '../../../lib/cn';
import { formatDateTime } from '../../../lib/format';
import { useRequestTimeline } from '../api/get-request-timeline';

/** The words of one step: how it was sent, which reminder, what the server answered. */
type TWordKey =
  | TTimelineEvent['kind']
  | 'sentEmail'
  | 'sentLink'
  | 'sentCollection'
  | 'remindedAuto'
  | 'remindedManual'
  | 'bouncedCode';

function eventKey(event: TTimelineEvent): { key: TWordKey; params?: Record<string, string | number> } {
  switch (event.kind) {
    case 'sent':
      return { key: event.via === 'email' ? 'sentEmail' : event.via === 'link' ? 'sentLink' : event.via === 'collection' ? 'sentCollection' : 'sent' };
    case 'reminded':
      return { key: event.automatic === true ? 'remindedAuto' : event.automatic === false ? 'remindedManual' : 'reminded' };
    case 'bounced':
      return event.smtp_code !== null ? { key: 'bouncedCode', params: { code: event.smtp_code } } : { key: 'bounced' };
    default:
      return { key: event.kind };
  }
}

const TONES: Partial<Record<TTimelineEvent['kind'], string>> = {
  bounced: 'bg-error-600',
  unsubscribed: 'bg-pending-500',
  submitted: 'bg-completed-500',
};

/**
 * One request's timeline (issue 30): sent, delivered or bounced, reminded, opened, camera granted,
 * first answer, submitted, unsubscribed — in time order, each with its date and time.
 * Test ids: `request-timeline`, `timeline-event` (data-kind).
 */
export function RequestTimeline({ requestId }: { requestId: string }) {
  const { t } = useTranslation();
  const query = useRequestTimeline(requestId);
  return (
    <Card className="mt-6" data-testid="request-timeline">
      <h2 className="text-base font-semibold text-gray-950">{t('funnel.timeline.title')}</h2>
      <p className="mt-1 text-sm text-gray-600">{t('funnel.timeline.description')}</p>
      <div className="mt-5">
        {query.isPending ? (
          <div className="flex flex-col gap-3" aria-busy="true">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="h-5 w-3/5" />
          </div>
        ) : query.isError ? (
          <ErrorState message={t('funnel.timeline.loadError')} onRetry={() => void query.refetch()} retrying={query.isFetching} />
        ) : query.data.events.length === 0 ? (
          <p className="text-sm text-gray-500">{t('funnel.timeline.empty')}</p>
        ) : (
          <ol className="relative flex flex-col gap-4 border-l border-gray-200 pl-6">
            {query.data.events.map((event, i) => {
              const { key, params } = eventKey(event);
              return (
                <li key={`${event.kind}-${event.at}-${i}`} className="relative" data-testid="timeline-event" data-kind={event.kind}>
                  <span
                    className={cn('absolute top-1.5 -left-[1.8rem] size-2.5 rounded-full ring-4 ring-white', TONES[event.kind] ?? 'bg-brand-600')}
                    aria-hidden="true"
                  />
                  <p className="text-sm font-medium text-gray-900">{t(`funnel.timeline.kinds.${key}`, params ?? {})}</p>
                  <p className="text-xs text-gray-500 tabular-nums">
                    <time dateTime={event.at}>{formatDateTime(event.at)}</time>
                  </p>
                </li>
              );
            })}
          </ol>
        )}
      </div>
    </Card>
  );
}
