/** The periods the funnel offers, in days (today included). */
export const PERIODS = [7, 30, 90] as const;
export type TPeriod = (typeof PERIODS)[number];

/** Today in the browser's own calendar (only until the server has said what day it is for the company). */
function localToday(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** `day` minus `days` calendar days, YYYY-MM-DD. */
export function shiftDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The query of a period ending on `today` (the company's, from the server's default view): nothing for
 * 30 days (the server's own default, so the two share one request), from/to otherwise.
 */
export function periodFilters(period: TPeriod, today: string | undefined): { from?: string; to?: string } {
  if (period === 30) return {};
  const to = today ?? localToday();
  return { from: shiftDay(to, -(period - 1)), to };
}
