import { REMINDER_CIVIL_HOURS } from '../../../contract/api/reminders.schema.js';

/**
 * When an automatic reminder is due (issue 30, decision 194). Pure functions of the clock, so the sweep
 * and its tests share them:
 * - reminder k (0-based: how many automatic ones already went) is due `reminderDays[k]` days (24-hour
 *   days) after the request was sent;
 * - it goes only within civil hours, 9:00 to 18:00 local time in the request's time zone, read from the
 *   zone's rules at that instant (so summer time and winter time both hold); outside, it waits;
 * - never within 24 hours of any other reminder, manual or automatic;
 * - never after the request expired or completed, nor without an address.
 */

const DAY_MS = 86_400_000;
export const MIN_GAP_MS = DAY_MS;

const hourFormats = new Map<string, Intl.DateTimeFormat>();

/** The local civil hour (0–23) and minute at `at` in `timeZone`. */
export function localTime(at: Date, timeZone: string): { hour: number; minute: number } {
  let format = hourFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    hourFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(at);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return { hour, minute };
}

/** Whether `at` falls within civil hours (9:00 included, 18:00 excluded) in `timeZone`. */
export function isWithinCivilHours(at: Date, timeZone: string): boolean {
  const { hour } = localTime(at, timeZone);
  return hour >= REMINDER_CIVIL_HOURS.start && hour < REMINDER_CIVIL_HOURS.end;
}

export interface ReminderState {
  status: string;
  createdAt: Date;
  expiresAt: Date;
  customerEmail: string | null;
  lastReminderSent: Date | null;
  autoReminderCount: number;
  timeZone: string;
}

export type ReminderDecision =
  | { due: true; index: number }
  | { due: false; why: 'not_pending' | 'expired' | 'no_email' | 'unsubscribed' | 'none_left' | 'not_yet' | 'recent_reminder' | 'outside_civil_hours' };

/** Whether the next automatic reminder of a request goes now (the sweep's one rule). */
export function reminderDecision(request: ReminderState, reminderDays: readonly number[], now: Date, unsubscribed = false): ReminderDecision {
  if (request.status !== 'pending') return { due: false, why: 'not_pending' };
  if (request.expiresAt.getTime() <= now.getTime()) return { due: false, why: 'expired' };
  if (!request.customerEmail) return { due: false, why: 'no_email' };
  if (unsubscribed) return { due: false, why: 'unsubscribed' };
  const index = request.autoReminderCount;
  const days = reminderDays[index];
  if (days === undefined) return { due: false, why: 'none_left' };
  if (request.createdAt.getTime() + days * DAY_MS > now.getTime()) return { due: false, why: 'not_yet' };
  if (request.lastReminderSent && now.getTime() - request.lastReminderSent.getTime() < MIN_GAP_MS) return { due: false, why: 'recent_reminder' };
  if (!isWithinCivilHours(now, request.timeZone)) return { due: false, why: 'outside_civil_hours' };
  return { due: true, index };
}
