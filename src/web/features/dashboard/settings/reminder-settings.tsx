import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import {
  DEFAULT_REMINDER_DAYS,
  isKnownTimeZone,
  REMINDER_DAY_MAX,
  REMINDER_DAY_MIN,
  REMINDER_DAYS_MAX_ENTRIES,
  type TReminderSettings,
} from '../../../../contract/api/reminders.schema.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { ErrorState } from '../../../components/error-state';
import { PlusIcon, TrashIcon } from '../../../components/icons';
import { SelectField } from '../../../components/select-field';
import { Skeleton } from '../../../components/skeleton';
import { SwitchField } from '../../../components/switch-field';
import { TextField } from '../../../components/text-field';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { useReminderSettings } from '../api/get-reminder-settings';
import { useUpdateReminderSettingsMutation } from '../api/update-reminder-settings';

/**
 * The company's automatic reminders (issue 30, decision 194): on or off, up to three days after the
 * request (3 and 7 by default), and the time zone whose civil hours (9:00–18:00) they keep to. New
 * requests take this time zone. Saved with its own button. Test ids `reminder-settings`,
 * `reminder-settings-switch`, `reminder-day-{n}`, `reminder-add-day`, `reminder-time-zone`, `reminder-save`.
 */

/** The time zones this browser knows, as a select's options ("America / New York"). */
function timeZoneOptions(current: string) {
  let zones: string[];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  if (!zones.includes('UTC')) zones = ['UTC', ...zones];
  if (current && !zones.includes(current)) zones = [current, ...zones];
  return zones.map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ').replace(/\//g, ' / ') }));
}

type Draft = { enabled: boolean; days: string[]; timeZone: string };

const draftOf = (s: TReminderSettings): Draft => ({
  enabled: s.reminder_days.length > 0,
  days: (s.reminder_days.length ? s.reminder_days : [...DEFAULT_REMINDER_DAYS]).map(String),
  timeZone: s.time_zone,
});

/** The draft as the API takes it, or the first error's field. */
function parseDraft(draft: Draft): { settings: TReminderSettings } | { error: 'days' | 'zone'; index?: number } {
  if (!isKnownTimeZone(draft.timeZone)) return { error: 'zone' };
  if (!draft.enabled) return { settings: { reminder_days: [], time_zone: draft.timeZone } };
  const days: number[] = [];
  for (const [index, text] of draft.days.entries()) {
    const day = Number(text);
    if (!/^\d+$/.test(text.trim()) || day < REMINDER_DAY_MIN || day > REMINDER_DAY_MAX || (index > 0 && day <= days[index - 1]!)) return { error: 'days', index };
    days.push(day);
  }
  return { settings: { reminder_days: days, time_zone: draft.timeZone } };
}

export function ReminderSettingsCard() {
  const { t } = useTranslation();
  const query = useReminderSettings();
  return (
    <Card padding="none" className="mt-6" aria-labelledby="settings-reminders-title" data-testid="reminder-settings">
      <div className="border-b border-gray-100 px-4 py-5 sm:px-6">
        <h2 id="settings-reminders-title" className="text-base font-semibold text-gray-950">
          {t('reminders.settings.title')}
        </h2>
        <p className="mt-1 text-sm text-gray-600">{t('reminders.settings.description')}</p>
      </div>
      {query.isPending ? (
        <div className="flex flex-col gap-4 px-4 py-6 sm:px-6" aria-hidden="true" data-testid="reminder-settings-loading">
          <Skeleton className="h-5 w-64" />
          <Skeleton className="h-10 w-full max-w-md" />
          <Skeleton className="h-10 w-full max-w-md" />
        </div>
      ) : query.isError ? (
        <div className="px-4 py-6 sm:px-6">
          <ErrorState message={t('reminders.settings.loadError')} onRetry={() => void query.refetch()} retrying={query.isFetching} data-testid="reminder-settings-error" />
        </div>
      ) : (
        <ReminderSettingsForm key={JSON.stringify(query.data)} saved={query.data} />
      )}
    </Card>
  );
}

function ReminderSettingsForm({ saved }: { saved: TReminderSettings }) {
  const { t } = useTranslation();
  const mutation = useUpdateReminderSettingsMutation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const [showErrors, setShowErrors] = useState(false);
  const zones = useMemo(() => timeZoneOptions(saved.time_zone), [saved.time_zone]);
  const parsed = parseDraft(draft);
  const dirty = 'settings' in parsed ? JSON.stringify(parsed.settings) !== JSON.stringify(saved) : true;
  const dayError = showErrors && 'error' in parsed && parsed.error === 'days' ? parsed.index : undefined;

  const setDay = (index: number, value: string) => setDraft((d) => ({ ...d, days: d.days.map((v, i) => (i === index ? value : v)) }));
  const removeDay = (index: number) => setDraft((d) => ({ ...d, days: d.days.filter((_, i) => i !== index) }));
  const addDay = () =>
    setDraft((d) => {
      const last = Number(d.days[d.days.length - 1] ?? 0) || 0;
      return { ...d, days: [...d.days, String(Math.min(REMINDER_DAY_MAX, last + 7))] };
    });

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setShowErrors(true);
    if (!('settings' in parsed)) return;
    mutation.mutate(parsed.settings, {
      onSuccess: (next) => toast.success(t(next.reminder_days.length ? 'reminders.settings.savedOn' : 'reminders.settings.savedOff')),
      onError: (error) => console.warn('PUT /api/user/reminder-settings failed.', error),
    });
  };

  return (
    <form className="flex max-w-2xl flex-col gap-5 px-4 py-6 sm:px-6" onSubmit={onSubmit} noValidate>
      <SwitchField
        label={t('reminders.settings.switch')}
        hint={t('reminders.settings.switchHint')}
        checked={draft.enabled}
        disabled={mutation.isPending}
        onCheckedChange={(enabled) => setDraft((d) => ({ ...d, enabled, days: enabled && d.days.length === 0 ? [...DEFAULT_REMINDER_DAYS].map(String) : d.days }))}
        data-testid="reminder-settings-switch"
      />
      {draft.enabled && (
        <fieldset className="flex flex-col gap-3" data-testid="reminder-days">
          <legend className="mb-2 text-sm font-medium text-gray-900">{t('reminders.settings.daysLegend')}</legend>
          {draft.days.map((value, index) => (
            <div key={index} className="flex items-end gap-2">
              <TextField
                label={t('reminders.settings.dayLabel', { n: index + 1 })}
                type="number"
                inputMode="numeric"
                min={REMINDER_DAY_MIN}
                max={REMINDER_DAY_MAX}
                value={value}
                onChange={(e) => setDay(index, e.target.value)}
                className="w-40"
                error={dayError === index ? t('reminders.settings.dayError', { min: REMINDER_DAY_MIN, max: REMINDER_DAY_MAX }) : undefined}
                data-testid={`reminder-day-${index + 1}`}
              />
              <span className="pb-2.5 text-sm text-gray-600">{t('reminders.settings.daysAfter', { count: Number(value) || 0 })}</span>
              {draft.days.length > 1 && (
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  className="mb-1 ml-auto"
                  onClick={() => removeDay(index)}
                  aria-label={t('reminders.settings.remove', { n: index + 1 })}
                  leadingIcon={<TrashIcon className="size-4" />}
                  data-testid={`reminder-remove-${index + 1}`}
                />
              )}
            </div>
          ))}
          {draft.days.length < REMINDER_DAYS_MAX_ENTRIES && (
            <div>
              <Button type="button" variant="secondary" size="sm" onClick={addDay} leadingIcon={<PlusIcon className="size-4" />} data-testid="reminder-add-day">
                {t('reminders.settings.add')}
              </Button>
            </div>
          )}
        </fieldset>
      )}
      <SelectField
        label={t('reminders.settings.timeZone')}
        hint={t('reminders.settings.timeZoneHint')}
        options={zones}
        value={draft.timeZone}
        onChange={(e) => setDraft((d) => ({ ...d, timeZone: e.target.value }))}
        className="max-w-md"
        data-testid="reminder-time-zone"
      />
      <p className="rounded-control bg-gray-50 px-3 py-2 text-sm text-gray-600" data-testid="reminder-rules">
        {t('reminders.settings.rules')}
      </p>
      {mutation.isError && (
        <Alert tone="error" title={t('reminders.settings.saveError')} data-testid="reminder-settings-save-error">
          {apiErrorMessage(mutation.error, t)}
        </Alert>
      )}
      <div className="flex items-center gap-3">
        <Button type="submit" loading={mutation.isPending} disabled={!dirty || mutation.isPending} data-testid="reminder-save">
          {t('reminders.settings.save')}
        </Button>
        {!dirty && <span className="text-sm text-gray-500">{t('reminders.settings.upToDate')}</span>}
      </div>
    </form>
  );
}
