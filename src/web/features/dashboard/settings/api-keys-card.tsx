import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { API_KEY_LIMITS, type TApiKey, type TApiKeyScope, type TCreatedApiKey } from '../../../../contract/api/api-keys.schema.js';
import { V1_REFERENCE_PAGE } from '../../../../contract/api/paths.js';
import { Alert } from '../../../components/alert';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { CopyField } from '../../../components/copy-field';
import { ConfirmDialog, Dialog } from '../../../components/dialog';
import { ErrorState } from '../../../components/error-state';
import { SelectField } from '../../../components/select-field';
import { Skeleton } from '../../../components/skeleton';
import { TextField } from '../../../components/text-field';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { formatDate } from '../../../lib/format';
import { useApiKeys, useCreateApiKeyMutation, useRevokeApiKeyMutation } from '../api/api-keys';

/**
 * The company's API keys (issue 32, decision 209): the list (name, scope, prefix, created, last used, a
 * Revoke that asks first), a dialog to create one (name, scope), and the new key shown once with a Copy
 * button. Test ids `api-keys`, `api-keys-create`, `api-key-row-{id}`, `api-key-revoke-{id}`,
 * `api-key-dialog`, `api-key-name`, `api-key-scope`, `api-key-submit`, `api-key-created`, `api-key-value`.
 */
export function ApiKeysCard() {
  const { t } = useTranslation();
  const query = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<TApiKey | null>(null);
  const revoke = useRevokeApiKeyMutation();

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        toast.success(t('apiKeys.revoked'));
        setRevoking(null);
      },
      onError: (error) => toast.error(apiErrorMessage(error, t)),
    });
  };

  return (
    <Card padding="none" className="mt-6" aria-labelledby="settings-api-keys-title" data-testid="api-keys">
      <div className="flex flex-col gap-3 border-b border-gray-100 px-4 py-5 sm:flex-row sm:items-start sm:justify-between sm:px-6">
        <div className="min-w-0">
          <h2 id="settings-api-keys-title" className="text-base font-semibold text-gray-950">
            {t('apiKeys.title')}
          </h2>
          <p className="mt-1 text-sm text-gray-600">{t('apiKeys.description')}</p>
          <p className="mt-2 text-sm">
            {/* A server-rendered page (decision 214), not a route of the app: a plain link. */}
            <a
              href={V1_REFERENCE_PAGE}
              target="_blank"
              rel="noopener"
              className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800 focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
              data-testid="api-keys-reference"
            >
              {t('apiKeys.reference')}
            </a>
          </p>
        </div>
        <Button variant="secondary" size="sm" className="shrink-0 self-start" onClick={() => setCreating(true)} data-testid="api-keys-create">
          {t('apiKeys.create')}
        </Button>
      </div>
      {query.isPending ? (
        <div className="flex flex-col gap-3 px-4 py-6 sm:px-6" aria-hidden="true" data-testid="api-keys-loading">
          <Skeleton className="h-5 w-64" />
          <Skeleton className="h-5 w-48" />
        </div>
      ) : query.isError ? (
        <div className="px-4 py-6 sm:px-6">
          <ErrorState message={t('apiKeys.loadError')} onRetry={() => void query.refetch()} retrying={query.isFetching} data-testid="api-keys-error" />
        </div>
      ) : query.data.keys.length === 0 ? (
        <p className="px-4 py-6 text-sm text-gray-600 sm:px-6" data-testid="api-keys-empty">
          {t('apiKeys.empty')}
        </p>
      ) : (
        <ul className="divide-y divide-gray-100">
          {query.data.keys.map((key) => (
            <KeyRow key={key.id} apiKey={key} onRevoke={() => setRevoking(key)} />
          ))}
        </ul>
      )}
      <CreateKeyDialog open={creating} onOpenChange={setCreating} />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={t('apiKeys.revokeTitle', { name: revoking?.name ?? '' })}
        description={t('apiKeys.revokeDescription')}
        confirmLabel={t('apiKeys.revokeConfirm')}
        onConfirm={confirmRevoke}
        pending={revoke.isPending}
        tone="danger"
        data-testid="api-key-revoke-dialog"
      />
    </Card>
  );
}

function KeyRow({ apiKey, onRevoke }: { apiKey: TApiKey; onRevoke: () => void }) {
  const { t } = useTranslation();
  const revoked = apiKey.revoked_at !== null;
  return (
    <li className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-6" data-testid={`api-key-row-${apiKey.id}`}>
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <span className={revoked ? 'font-medium text-gray-500 line-through' : 'font-medium text-gray-900'}>{apiKey.name}</span>
          <Badge tone={apiKey.scope === 'read' ? 'neutral' : 'brand'}>{t(`apiKeys.scopes.${apiKey.scope}`)}</Badge>
          {revoked ? <Badge tone="expired">{t('apiKeys.revokedBadge')}</Badge> : null}
        </div>
        <p className="mt-1 font-mono text-xs break-all text-gray-600">{apiKey.prefix}_…</p>
        <p className="mt-1 text-xs text-gray-500 tabular-nums">
          {t('apiKeys.created', { date: formatDate(apiKey.created_at) })} ·{' '}
          {apiKey.last_used_at ? t('apiKeys.lastUsed', { date: formatDate(apiKey.last_used_at) }) : t('apiKeys.neverUsed')}
          {apiKey.revoked_at ? ` · ${t('apiKeys.revokedOn', { date: formatDate(apiKey.revoked_at) })}` : ''}
        </p>
      </div>
      {revoked ? null : (
        <Button variant="ghost" size="sm" className="-ml-3 self-start text-error-700 sm:ml-0 sm:self-center" onClick={onRevoke} data-testid={`api-key-revoke-${apiKey.id}`}>
          {t('apiKeys.revoke')}
        </Button>
      )}
    </li>
  );
}

function CreateKeyDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const create = useCreateApiKeyMutation();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<TApiKeyScope>('read');
  const [nameError, setNameError] = useState<string | undefined>();
  const [created, setCreated] = useState<TCreatedApiKey | null>(null);

  const close = (next: boolean) => {
    if (next) return onOpenChange(true);
    onOpenChange(false);
    setName('');
    setScope('read');
    setNameError(undefined);
    setCreated(null);
    create.reset();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setNameError(t('apiKeys.nameRequired'));
    if (trimmed.length > API_KEY_LIMITS.name) return setNameError(t('apiKeys.nameTooLong', { max: API_KEY_LIMITS.name }));
    setNameError(undefined);
    create.mutate({ name: trimmed, scope }, { onSuccess: setCreated });
  };

  if (created) {
    return (
      <Dialog
        open={open}
        onOpenChange={close}
        title={t('apiKeys.createdTitle')}
        data-testid="api-key-created"
        footer={
          <Button onClick={() => close(false)} data-testid="api-key-done">
            {t('apiKeys.done')}
          </Button>
        }
      >
        <Alert tone="warning" className="mb-4">
          {t('apiKeys.shownOnce')}
        </Alert>
        <CopyField
          label={t('apiKeys.keyLabel', { name: created.name })}
          hint={t('apiKeys.keyHint')}
          value={created.key}
          copyLabel={t('apiKeys.copy')}
          multiline
          rows={3}
          testId="api-key-value"
          copyTestId="api-key-copy"
        />
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={t('apiKeys.createTitle')}
      description={t('apiKeys.createDescription')}
      busy={create.isPending}
      data-testid="api-key-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={() => close(false)} disabled={create.isPending}>
            {t('apiKeys.cancel')}
          </Button>
          <Button type="submit" form="api-key-form" loading={create.isPending} data-testid="api-key-submit">
            {t('apiKeys.createSubmit')}
          </Button>
        </>
      }
    >
      <form id="api-key-form" className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('apiKeys.name')}
          hint={t('apiKeys.nameHint')}
          value={name}
          maxLength={API_KEY_LIMITS.name}
          onChange={(event) => setName(event.target.value)}
          error={nameError}
          data-testid="api-key-name"
        />
        <SelectField
          label={t('apiKeys.scope')}
          value={scope}
          onChange={(event) => setScope(event.target.value as TApiKeyScope)}
          options={[
            { value: 'read', label: t('apiKeys.scopes.read') },
            { value: 'read_write', label: t('apiKeys.scopes.read_write') },
          ]}
          hint={t(scope === 'read' ? 'apiKeys.scopeHints.read' : 'apiKeys.scopeHints.read_write')}
          data-testid="api-key-scope"
        />
        {create.isError ? <Alert tone="error">{apiErrorMessage(create.error, t)}</Alert> : null}
      </form>
    </Dialog>
  );
}
