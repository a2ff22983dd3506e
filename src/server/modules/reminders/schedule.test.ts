import { describe, expect, it } from 'vitest';
import { isWithinCivilHours, localTime, reminderDecision, type ReminderState } from './schedule.js';

const at = (iso: string) => new Date(iso);

describe('civil hours in the request time zone', () => {
  it('reads the local hour from the zone rules, summer and winter time alike (Europe/Paris)', () => {
    // Winter (CET, UTC+1): 08:00 UTC is 09:00 local; summer (CEST, UTC+2): 07:00 UTC is 09:00 local.
    expect(localTime(at('2026-01-15T08:00:00Z'), 'Europe/Paris')).toEqual({ hour: 9, minute: 0 });
    expect(localTime(at('2026-07-15T07:00:00Z'), 'Europe/Paris')).toEqual({ hour: 9, minute: 0 });
    expect(isWithinCivilHours(at('2026-01-15T07:59:00Z'), 'Europe/Paris')).toBe(false);
    expect(isWithinCivilHours(at('2026-01-15T08:00:00Z'), 'Europe/Paris')).toBe(true);
    expect(isWithinCivilHours(at('2026-01-15T16:59:00Z'), 'Europe/Paris')).toBe(true);
    expect(isWithinCivilHours(at('2026-01-15T17:00:00Z'), 'Europe/Paris')).toBe(false); // 18:00 excluded
    expect(isWithinCivilHours(at('2026-07-15T06:59:00Z'), 'Europe/Paris')).toBe(false);
    expect(isWithinCivilHours(at('2026-07-15T15:59:00Z'), 'Europe/Paris')).toBe(true);
    expect(isWithinCivilHours(at('2026-07-15T16:00:00Z'), 'Europe/Paris')).toBe(false);
  });

  it('follows the day summer time starts and ends (the same UTC instant changes side)', () => {
    // Sunday 29 March 2026, 02:00 CET → 03:00 CEST. 07:30 UTC: 08:30 the day before, 09:30 that day.
    expect(isWithinCivilHours(at('2026-03-28T07:30:00Z'), 'Europe/Paris')).toBe(false);
    expect(isWithinCivilHours(at('2026-03-29T07:30:00Z'), 'Europe/Paris')).toBe(true);
    // Sunday 25 October 2026, 03:00 CEST → 02:00 CET. 16:30 UTC: 18:30 on the 24th, 17:30 on the 25th.
    expect(isWithinCivilHours(at('2026-10-24T16:30:00Z'), 'Europe/Paris')).toBe(false);
    expect(isWithinCivilHours(at('2026-10-25T16:30:00Z'), 'Europe/Paris')).toBe(true);
    // New York changes on other dates (8 March, 1 November 2026): 13:30 UTC is 08:30 EST, then 09:30 EDT.
    expect(isWithinCivilHours(at('2026-03-07T13:30:00Z'), 'America/New_York')).toBe(false);
    expect(isWithinCivilHours(at('2026-03-09T13:30:00Z'), 'America/New_York')).toBe(true);
  });

  it('keeps far zones apart: the same instant is civil in one, night in another', () => {
    const instant = at('2026-05-04T01:00:00Z');
    expect(isWithinCivilHours(instant, 'Asia/Tokyo')).toBe(true); // 10:00
    expect(isWithinCivilHours(instant, 'Europe/Paris')).toBe(false); // 03:00
    expect(isWithinCivilHours(instant, 'Australia/Adelaide')).toBe(true); // 10:30 (UTC+9:30)
    expect(isWithinCivilHours(instant, 'Pacific/Kiritimati')).toBe(true); // 15:00 (UTC+14)
    expect(isWithinCivilHours(instant, 'America/Los_Angeles')).toBe(false); // 18:00, the day before
  });
});

describe('when the next automatic reminder is due', () => {
  const base: ReminderState = {
    status: 'pending',
    createdAt: at('2026-01-05T09:00:00Z'), // Monday 10:00 in Paris
    expiresAt: at('2026-02-04T09:00:00Z'),
    customerEmail: 'lea@client.test',
    lastReminderSent: null,
    autoReminderCount: 0,
    timeZone: 'Europe/Paris',
  };
  const days = [3, 7];

  it('is due reminderDays[k] days after the request, within civil hours only', () => {
    expect(reminderDecision(base, days, at('2026-01-08T08:59:00Z'))).toEqual({ due: false, why: 'not_yet' });
    expect(reminderDecision(base, days, at('2026-01-08T09:00:00Z'))).toEqual({ due: true, index: 0 });
    // Three days after a request sent at 20:00 local, the reminder waits for 9:00 the next morning.
    const evening = { ...base, createdAt: at('2026-01-05T19:00:00Z') };
    expect(reminderDecision(evening, days, at('2026-01-08T19:00:00Z'))).toEqual({ due: false, why: 'outside_civil_hours' });
    expect(reminderDecision(evening, days, at('2026-01-09T07:55:00Z'))).toEqual({ due: false, why: 'outside_civil_hours' });
    expect(reminderDecision(evening, days, at('2026-01-09T08:00:00Z'))).toEqual({ due: true, index: 0 });
  });

  it('takes the next day of the list, never within 24 hours of another reminder, and stops after the last', () => {
    const once = { ...base, autoReminderCount: 1, lastReminderSent: at('2026-01-08T09:00:00Z') };
    expect(reminderDecision(once, days, at('2026-01-12T08:59:00Z'))).toEqual({ due: false, why: 'not_yet' });
    expect(reminderDecision(once, days, at('2026-01-12T09:00:00Z'))).toEqual({ due: true, index: 1 });
    // A manual reminder the evening before holds the automatic one back for 24 hours.
    const manual = { ...once, lastReminderSent: at('2026-01-11T17:00:00Z') };
    expect(reminderDecision(manual, days, at('2026-01-12T09:00:00Z'))).toEqual({ due: false, why: 'recent_reminder' });
    expect(reminderDecision(manual, days, at('2026-01-12T16:59:00Z'))).toEqual({ due: false, why: 'recent_reminder' });
    expect(reminderDecision(manual, days, at('2026-01-13T08:00:00Z'))).toEqual({ due: true, index: 1 });
    const done = { ...base, autoReminderCount: 2, lastReminderSent: at('2026-01-12T09:00:00Z') };
    expect(reminderDecision(done, days, at('2026-01-20T09:00:00Z'))).toEqual({ due: false, why: 'none_left' });
    expect(reminderDecision(base, [], at('2026-01-20T09:00:00Z'))).toEqual({ due: false, why: 'none_left' });
  });

  it('never after expiry or completion, without an address, or to an unsubscribed address', () => {
    const now = at('2026-01-08T09:00:00Z');
    expect(reminderDecision({ ...base, status: 'completed' }, days, now)).toEqual({ due: false, why: 'not_pending' });
    expect(reminderDecision({ ...base, expiresAt: now }, days, now)).toEqual({ due: false, why: 'expired' });
    expect(reminderDecision({ ...base, customerEmail: null }, days, now)).toEqual({ due: false, why: 'no_email' });
    expect(reminderDecision(base, days, now, true)).toEqual({ due: false, why: 'unsubscribed' });
  });

  it('keeps to the request time zone, not the server one', () => {
    const tokyo = { ...base, timeZone: 'Asia/Tokyo' };
    // 09:00 UTC is 18:00 in Tokyo: too late there, fine in Paris.
    expect(reminderDecision(tokyo, days, at('2026-01-08T09:00:00Z'))).toEqual({ due: false, why: 'outside_civil_hours' });
    expect(reminderDecision(tokyo, days, at('2026-01-09T00:00:00Z'))).toEqual({ due: true, index: 0 });
  });
});
