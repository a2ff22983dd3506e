import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZReminderSettings } from '../../../../contract/api/reminders.schema.js';
import type { TReminderSettings } from '../../../../contract/api/reminders.schema.js';
import { apiFetch } from '../../../lib/api-client';

/** GET /api/user/reminder-settings: the company's automatic reminder days and time zone (issue 30). */
export function getReminderSettings(signal?: AbortSignal): Promise<TReminderSettings> {
  return apiFetch(API.reminders.get.path, { method: API.reminders.get.method, schema: ZReminderSettings, signal });
}

export const reminderSettingsKeys = { all: ['reminder-settings'] as const };

export const reminderSettingsQueryOptions = () =>
  queryOptions({ queryKey: reminderSettingsKeys.all, queryFn: ({ signal }) => getReminderSettings(signal) });

export function useReminderSettings() {
  return useQuery(reminderSettingsQueryOptions());
}
