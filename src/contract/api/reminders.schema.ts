import { z } from 'zod';

/**
 * Automatic reminders and unsubscribing (issue 30, decisions 194–195). A company sends up to three
 * automatic reminders to pending requests, each a number of days after the request was sent, within
 * civil hours (9:00–18:00) in the request's time zone. An empty list turns them off.
 */

export const REMINDER_DAYS_MAX_ENTRIES = 3;
export const REMINDER_DAY_MIN = 1;
export const REMINDER_DAY_MAX = 60;
export const DEFAULT_REMINDER_DAYS = [3, 7] as const;
export const DEFAULT_TIME_ZONE = 'Europe/Paris';
/** The civil hours automatic reminders keep to, in the request's time zone: [start, end). */
export const REMINDER_CIVIL_HOURS = { start: 9, end: 18 } as const;

/** Whether the runtime knows this IANA time zone (Intl.supportedValuesOf, plus UTC which some lists omit). */
export function isKnownTimeZone(value: string): boolean {
  if (value === 'UTC') return true;
  try {
    return Intl.supportedValuesOf('timeZone').includes(value);
  } catch {
    return false;
  }
}

export const REMINDER_DAYS_MESSAGE = `Give at most ${REMINDER_DAYS_MAX_ENTRIES} different days, in ascending order, each between ${REMINDER_DAY_MIN} and ${REMINDER_DAY_MAX}.`;
export const TIME_ZONE_MESSAGE = 'Choose a time zone from the list.';

export const ZReminderDays = z
  .array(z.number().int().min(REMINDER_DAY_MIN, REMINDER_DAYS_MESSAGE).max(REMINDER_DAY_MAX, REMINDER_DAYS_MESSAGE))
  .max(REMINDER_DAYS_MAX_ENTRIES, REMINDER_DAYS_MESSAGE)
  .refine((days) => days.every((day, i) => i === 0 || day > days[i - 1]!), REMINDER_DAYS_MESSAGE);

export const ZTimeZone = z.string().min(1).max(64).refine(isKnownTimeZone, TIME_ZONE_MESSAGE);

/** GET and PUT /api/user/reminder-settings: the body of the PUT and the answer of both. */
export const ZReminderSettings = z.object({
  /** Days after the request was sent; 0 to 3 ascending entries; [] turns automatic reminders off. */
  reminder_days: ZReminderDays,
  /** The IANA time zone new requests take (each request keeps its own). */
  time_zone: ZTimeZone,
});
export type TReminderSettings = z.infer<typeof ZReminderSettings>;

/** POST /dev/reminders/run (development and tests only): run the sweep as if the clock read `now`. */
export const ZReminderSweepBody = z.object({ now: z.iso.datetime({ offset: true }) });
export const ZReminderSweepResult = z.object({ reminded: z.array(z.string()) });
export type TReminderSweepResult = z.infer<typeof ZReminderSweepResult>;

/**
 * The PUT's body as it may arrive: the shape only. The rules (ascending, 1..60, at most 3, a known zone)
 * are checked by the service, which answers a translated reason (`reminder_days_invalid`, `time_zone_invalid`).
 */
export const ZReminderSettingsBody = z.object({
  reminder_days: z.array(z.number()).max(20),
  time_zone: z.string().max(100),
});
export type TReminderSettingsBody = z.infer<typeof ZReminderSettingsBody>;
