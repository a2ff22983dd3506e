import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZReminderSettings } from '../../../../contract/api/reminders.schema.js';
import type { TReminderSettings } from '../../../../contract/api/reminders.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { reminderSettingsKeys } from './get-reminder-settings';

/** PUT /api/user/reminder-settings: new reminder days (0–3, ascending, 1..60) and time zone. */
export function updateReminderSettings(settings: TReminderSettings): Promise<TReminderSettings> {
  return apiFetch(API.reminders.update.path, { method: API.reminders.update.method, body: settings, schema: ZReminderSettings });
}

export function useUpdateReminderSettingsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateReminderSettings,
    onSuccess: (saved) => queryClient.setQueryData(reminderSettingsKeys.all, saved),
  });
}
