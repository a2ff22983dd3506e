import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { WEBHOOK_EVENT_TYPES, type TWebhookEndpoint, type TWebhookEndpointWithSecret, type TWebhookEventType } from '../../../../contract/api/webhooks.schema.js';
import { Alert } from '../../../components/alert';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { Checkbox } from '../../../components/checkbox';
import { CopyField } from '../../../components/copy-field';
import { ConfirmDialog, Dialog } from '../../../components/dialog';
import { ErrorState } from '../../../components/error-state';
import { Skeleton } from '../../../components/skeleton';
import { SwitchField } from '../../../components/switch-field';
import { TextField } from '../../../components/text-field';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { formatDate, formatDateTime } from '../../../lib/format';
import {
  useCreateWebhookMutation,
  useDeleteWebhookMutation,
  useRedeliverWebhookMutation,
  useSendWebhookTestMutation,
  useUpdateWebhookMutation,
  useWebhookDeliveries,
  useWebhooks,
} from '../api/webhooks';

/**
 * The company's webhook endpoints (issue 32, decisions 210 and 211): the list (address, events, on/off,
 * delete that asks first, "send a test event", the delivery log), a dialog to add one (address, events),
 * and its signing secret shown once with a Copy button. Test ids `webhooks`, `webhooks-create`,
 * `webhook-row-{id}`, `webhook-dialog`, `webhook-url`, `webhook-event-{type}`, `webhook-submit`,
 * `webhook-created`, `webhook-secret`, `webhook-log-{id}`, `webhook-delivery-{id}`.
 */
export function WebhooksCard() {
  const { t } = useTranslation();
  const query = useWebhooks();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<TWebhookEndpoint | null>(null);
  const remove = useDeleteWebhookMutation();

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toast.success(t('webhooks.deleted'));
        setDeleting(null);
      },
      onError: (error) => toast.error(apiErrorMessage(error, t)),
    });
  };

  return (
    <Card padding="none" className="mt-6" aria-labelledby="settings-webhooks-title" data-testid="webhooks">
      <div className="flex flex-col gap-3 border-b border-gray-100 px-4 py-5 sm:flex-row sm:items-start sm:justify-between sm:px-6">
        <div className="min-w-0">
          <h2 id="settings-webhooks-title" className="text-base font-semibold text-gray-950">
            {t('webhooks.title')}
          </h2>
          <p className="mt-1 text-sm text-gray-600">{t('webhooks.description')}</p>
        </div>
        <Button variant="secondary" size="sm" className="shrink-0 self-start" onClick={() => setCreating(true)} data-testid="webhooks-create">
          {t('webhooks.create')}
        </Button>
      </div>
      {query.isPending ? (
        <div className="flex flex-col gap-3 px-4 py-6 sm:px-6" aria-hidden="true" data-testid="webhooks-loading">
          <Skeleton className="h-5 w-64" />
          <Skeleton className="h-5 w-48" />
        </div>
      ) : query.isError ? (
        <div className="px-4 py-6 sm:px-6">
          <ErrorState message={t('webhooks.loadError')} onRetry={() => void query.refetch()} retrying={query.isFetching} data-testid="webhooks-error" />
        </div>
      ) : query.data.endpoints.length === 0 ? (
        <p className="px-4 py-6 text-sm text-gray-600 sm:px-6" data-testid="webhooks-empty">
          {t('webhooks.empty')}
        </p>
      ) : (
        <ul className="divide-y divide-gray-100">
          {query.data.endpoints.map((endpoint) => (
            <EndpointRow key={endpoint.id} endpoint={endpoint} onDelete={() => setDeleting(endpoint)} />
          ))}
        </ul>
      )}
      <CreateEndpointDialog open={creating} onOpenChange={setCreating} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('webhooks.deleteTitle')}
        description={t('webhooks.deleteDescription', { url: deleting?.url ?? '' })}
        confirmLabel={t('webhooks.deleteConfirm')}
        onConfirm={confirmDelete}
        pending={remove.isPending}
        tone="danger"
        data-testid="webhook-delete-dialog"
      />
    </Card>
  );
}

function EndpointRow({ endpoint, onDelete }: { endpoint: TWebhookEndpoint; onDelete: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateWebhookMutation();
  const test = useSendWebhookTestMutation();
  const [logOpen, setLogOpen] = useState(false);
  const toggle = (enabled: boolean) =>
    update.mutate({ id: endpoint.id, enabled }, { onSuccess: () => toast.success(t(enabled ? 'webhooks.turnedOn' : 'webhooks.turnedOff')), onError: (e) => toast.error(apiErrorMessage(e, t)) });
  const sendTest = () =>
    test.mutate(endpoint.id, {
      onSuccess: () => {
        toast.success(t('webhooks.testSent'));
        setLogOpen(true);
      },
      onError: (e) => toast.error(apiErrorMessage(e, t)),
    });
  return (
    <li className="flex flex-col gap-3 px-4 py-4 sm:px-6" data-testid={`webhook-row-${endpoint.id}`}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all text-gray-900">{endpoint.url}</p>
          <div className="mt-2 flex flex-wrap gap-1.5">
            {endpoint.events.map((e) => (
              <Badge key={e} tone="neutral">
                {e}
              </Badge>
            ))}
            {endpoint.disabled_reason === 'failing' ? <Badge tone="error">{t('webhooks.disabledFailing')}</Badge> : null}
          </div>
          <p className="mt-1 text-xs text-gray-500 tabular-nums">
            {t('webhooks.created', { date: formatDate(endpoint.created_at) })}
            {endpoint.failing_since ? ` · ${t('webhooks.failingSince', { date: formatDate(endpoint.failing_since) })}` : ''}
          </p>
        </div>
        <SwitchField
          label={t('webhooks.enabled')}
          checked={endpoint.enabled}
          onCheckedChange={toggle}
          disabled={update.isPending}
          className="shrink-0"
          data-testid={`webhook-enabled-${endpoint.id}`}
        />
      </div>
      <div className="-ml-3 flex flex-wrap gap-1">
        <Button variant="ghost" size="sm" onClick={() => setLogOpen((o) => !o)} aria-expanded={logOpen} data-testid={`webhook-log-toggle-${endpoint.id}`}>
          {t(logOpen ? 'webhooks.hideLog' : 'webhooks.showLog')}
        </Button>
        <Button variant="ghost" size="sm" onClick={sendTest} loading={test.isPending} disabled={!endpoint.enabled} data-testid={`webhook-test-${endpoint.id}`}>
          {t('webhooks.sendTest')}
        </Button>
        <Button variant="ghost" size="sm" className="text-error-700" onClick={onDelete} data-testid={`webhook-delete-${endpoint.id}`}>
          {t('webhooks.delete')}
        </Button>
      </div>
      {logOpen ? <DeliveryLog endpoint={endpoint} /> : null}
    </li>
  );
}

const EVENT_NAME_KEYS = {
  'testimonial.submitted': 'webhooks.eventNames.testimonial_submitted',
  'testimonial.paid': 'webhooks.eventNames.testimonial_paid',
  'render.ready': 'webhooks.eventNames.render_ready',
  'render.failed': 'webhooks.eventNames.render_failed',
  'publication.published': 'webhooks.eventNames.publication_published',
  'publication.unpublished': 'webhooks.eventNames.publication_unpublished',
  'consent.withdrawn': 'webhooks.eventNames.consent_withdrawn',
} as const satisfies Record<TWebhookEventType, string>;

const STATUS_TONE = { pending: 'pending', succeeded: 'completed', failed: 'error', cancelled: 'expired' } as const;

function DeliveryLog({ endpoint }: { endpoint: TWebhookEndpoint }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useWebhookDeliveries(endpoint.id, page);
  const redeliver = useRedeliverWebhookMutation();
  if (query.isPending) return <Skeleton className="h-16 w-full" />;
  if (query.isError) return <ErrorState message={t('webhooks.logError')} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  const { data, total, per_page } = query.data;
  return (
    <section className="rounded-md border border-gray-100 bg-gray-50 p-3" aria-label={t('webhooks.log')} data-testid={`webhook-log-${endpoint.id}`}>
      {data.length === 0 ? (
        <p className="text-sm text-gray-600">{t('webhooks.logEmpty')}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {data.map((d) => (
            <li key={d.id} className="flex flex-col gap-1 text-sm" data-testid={`webhook-delivery-${d.id}`}>
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-mono text-xs text-gray-900">{d.type}</span>
                <Badge tone={STATUS_TONE[d.status]}>{t(`webhooks.status.${d.status}`)}</Badge>
                <span className="text-xs text-gray-500 tabular-nums">{formatDateTime(d.created_at)}</span>
                <Button
                  variant="ghost"
                  size="sm"
                  className="ml-auto"
                  disabled={!endpoint.enabled || d.status === 'pending'}
                  loading={redeliver.isPending && redeliver.variables?.deliveryId === d.id}
                  onClick={() =>
                    redeliver.mutate({ id: endpoint.id, deliveryId: d.id }, { onSuccess: () => toast.success(t('webhooks.redelivered')), onError: (e) => toast.error(apiErrorMessage(e, t)) })
                  }
                  data-testid={`webhook-redeliver-${d.id}`}
                >
                  {t('webhooks.redeliver')}
                </Button>
              </div>
              <ul className="flex flex-col gap-0.5 pl-2 text-xs text-gray-600 tabular-nums">
                {d.attempts.map((a) => (
                  <li key={a.id}>
                    {t('webhooks.attempt', {
                      date: formatDateTime(a.created_at),
                      code: a.response_status ?? '—',
                      ms: a.duration_ms,
                    })}
                    {a.error ? ` · ${a.error}` : ''}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      {total > per_page ? (
        <div className="mt-3 flex items-center gap-2">
          <Button variant="secondary" size="sm" disabled={page === 1} onClick={() => setPage((p) => p - 1)}>
            {t('webhooks.previous')}
          </Button>
          <Button variant="secondary" size="sm" disabled={page * per_page >= total} onClick={() => setPage((p) => p + 1)}>
            {t('webhooks.next')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function CreateEndpointDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const create = useCreateWebhookMutation();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<TWebhookEventType[]>(['testimonial.submitted']);
  const [error, setError] = useState<{ url?: string; events?: string }>({});
  const [created, setCreated] = useState<TWebhookEndpointWithSecret | null>(null);

  const close = (next: boolean) => {
    if (next) return onOpenChange(true);
    onOpenChange(false);
    setUrl('');
    setEvents(['testimonial.submitted']);
    setError({});
    setCreated(null);
    create.reset();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = url.trim();
    const problems: { url?: string; events?: string } = {};
    if (!/^https?:\/\/\S+$/i.test(trimmed)) problems.url = t('webhooks.urlInvalid');
    if (events.length === 0) problems.events = t('webhooks.eventsRequired');
    setError(problems);
    if (problems.url || problems.events) return;
    create.mutate({ url: trimmed, events, enabled: true }, { onSuccess: setCreated });
  };

  if (created) {
    return (
      <Dialog
        open={open}
        onOpenChange={close}
        title={t('webhooks.createdTitle')}
        data-testid="webhook-created"
        footer={
          <Button onClick={() => close(false)} data-testid="webhook-done">
            {t('webhooks.done')}
          </Button>
        }
      >
        <Alert tone="warning" className="mb-4">
          {t('webhooks.shownOnce')}
        </Alert>
        <CopyField label={t('webhooks.secretLabel')} hint={t('webhooks.secretHint')} value={created.secret} copyLabel={t('webhooks.copy')} testId="webhook-secret" copyTestId="webhook-copy" />
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={t('webhooks.createTitle')}
      description={t('webhooks.createDescription')}
      busy={create.isPending}
      data-testid="webhook-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={() => close(false)} disabled={create.isPending}>
            {t('webhooks.cancel')}
          </Button>
          <Button type="submit" form="webhook-form" loading={create.isPending} data-testid="webhook-submit">
            {t('webhooks.createSubmit')}
          </Button>
        </>
      }
    >
      <form id="webhook-form" className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('webhooks.url')}
          hint={t('webhooks.urlHint')}
          value={url}
          inputMode="url"
          placeholder="https://"
          onChange={(event) => setUrl(event.target.value)}
          error={error.url}
          data-testid="webhook-url"
        />
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-gray-900">{t('webhooks.events')}</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <Checkbox
              key={type}
              label={`${type} — ${t(EVENT_NAME_KEYS[type])}`}
              checked={events.includes(type)}
              onChange={(e) => setEvents((current) => (e.target.checked ? [...current, type] : current.filter((x) => x !== type)))}
              data-testid={`webhook-event-${type}`}
            />
          ))}
          {error.events ? (
            <p className="text-sm text-error-700" role="alert">
              {error.events}
            </p>
          ) : null}
        </fieldset>
        {create.isError ? <Alert tone="error">{apiErrorMessage(create.error, t)}</Alert> : null}
      </form>
    </Dialog>
  );
}
