import { createHmac, randomBytes } from 'node:crypto';
import { and, eq, gte, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import { type TTestimonialPlaysResponse, type TViewCounts, type TViewMilestone, type TViewSeriesResponse } from '../../../contract/api/views.schema.js';
import type { AppContext } from '../../context.js';
import { publicationViewMarks, publicationViews, publications, testimonialRequests, viewSalts } from '../../db/schema.js';
import { addressGroup } from '../../http/rate-limit.js';
import { AppError } from '../../lib/errors.js';

/**
 * View analytics (issue 19, decision 144). A player reports when its video starts and when it passes
 * 25/50/75/100 %; each milestone counts once per viewer and 30 minutes, into a row per publication and
 * day. A viewer is told apart only by a salted hash of its address, browser and the slug, with a salt
 * drawn at random each day and deleted the day after: the hash lives in `publication_view_marks` for
 * the 30 minutes of its window, never beside the counts, and no cookie is read or set.
 */

/** A milestone counted again within this long, by the same viewer, is not counted. */
export const VIEW_DEDUP_MS = 30 * 60_000;

/**
 * User agents that are not people watching: crawlers, link unfurlers, monitors, headless browsers and
 * HTTP libraries. Matched case-insensitively anywhere in the header.
 */
const BOT_PATTERN =
  /bot\b|bot\/|crawl|spider|slurp|preview|facebookexternalhit|facebookcatalog|embedly|whatsapp|telegram|discord|slack|linkedin|twitter|skype|vkshare|pinterest|quora link|headless|phantomjs|puppeteer|playwright|selenium|lighthouse|page ?speed|google-|mediapartners|\+https?:\/\/|gtmetrix|pingdom|uptime|monitor|curl\/|wget\/|python|java\/|go-http|okhttp|axios|node-fetch|undici|libwww|httpclient|scrapy|feedfetcher|validator/i;

/** Whether a user agent is a program rather than someone watching (no user agent at all included). */
export function isBot(userAgent: string | undefined): boolean {
  const ua = userAgent?.trim() ?? '';
  return ua.length < 10 || BOT_PATTERN.test(ua);
}

const COLUMN: Record<TViewMilestone, keyof TViewCounts> = { started: 'started', p25: 'p25', p50: 'p50', p75: 'p75', p100: 'p100' };

/** A UTC day as YYYY-MM-DD. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** Each process keeps the salts it read (two at most: today and the day before, around midnight). */
const salts = new Map<string, Buffer>();

/**
 * The day's salt: drawn at random by the first process that needs it, shared through the database by
 * every other one, and forgotten with the day (pruneViews deletes older salts).
 */
async function saltOf(ctx: AppContext, day: string): Promise<Buffer> {
  const known = salts.get(day);
  if (known) return known;
  await ctx.db.insert(viewSalts).values({ day, salt: randomBytes(32).toString('base64') }).onConflictDoNothing();
  const [row] = await ctx.db.select({ salt: viewSalts.salt }).from(viewSalts).where(eq(viewSalts.day, day));
  const salt = Buffer.from(row!.salt, 'base64');
  for (const old of salts.keys()) if (old < day) salts.delete(old);
  salts.set(day, salt);
  return salt;
}

/** The viewer's mark for one milestone of one publication: nothing in it can be turned back into an address. */
export async function viewerMark(ctx: AppContext, input: { ip: string; userAgent: string; slug: string; milestone: TViewMilestone; now: Date }): Promise<string> {
  const salt = await saltOf(ctx, utcDay(input.now));
  const viewer = createHmac('sha256', salt).update(`${addressGroup(input.ip)}\n${input.userAgent}\n${input.slug}`).digest('base64url');
  return `${viewer}:${input.milestone}`;
}

export type BeaconOutcome = 'counted' | 'repeat' | 'bot' | 'unknown';

let lastPrune = 0;

/**
 * Counts one beacon: a bot, a slug never published or taken down, or a milestone this viewer already
 * had counted in the last 30 minutes changes nothing. The caller answers the same whatever happens.
 */
export async function recordBeacon(
  ctx: AppContext,
  input: { slug: string; milestone: TViewMilestone; ip: string; userAgent: string | undefined; now?: Date },
): Promise<BeaconOutcome> {
  const now = input.now ?? new Date();
  if (isBot(input.userAgent)) return 'bot';
  const [live] = await ctx.db
    .select({ id: publications.id })
    .from(publications)
    .where(and(eq(publications.slug, input.slug.slice(0, 64)), isNull(publications.unpublishedAt)));
  if (!live) return 'unknown';
  if (now.getTime() - lastPrune > 60_000) {
    lastPrune = now.getTime();
    await pruneViews(ctx, now);
  }
  const mark = await viewerMark(ctx, { ip: input.ip, userAgent: input.userAgent!, slug: input.slug, milestone: input.milestone, now });
  const fresh = await ctx.db
    .insert(publicationViewMarks)
    .values({ mark, expiresAt: new Date(now.getTime() + VIEW_DEDUP_MS) })
    // An expired mark is taken over (its window ended); a live one is left alone, and nothing is returned.
    .onConflictDoUpdate({
      target: publicationViewMarks.mark,
      set: { expiresAt: new Date(now.getTime() + VIEW_DEDUP_MS) },
      setWhere: lte(publicationViewMarks.expiresAt, now),
    })
    .returning({ mark: publicationViewMarks.mark });
  if (!fresh.length) return 'repeat';
  const column = COLUMN[input.milestone];
  const one = { started: 0, p25: 0, p50: 0, p75: 0, p100: 0, [column]: 1 };
  await ctx.db
    .insert(publicationViews)
    .values({ publicationId: live.id, day: utcDay(now), ...one })
    .onConflictDoUpdate({
      target: [publicationViews.publicationId, publicationViews.day],
      set: { [column]: sql`${publicationViews[column]} + 1` },
    });
  return 'counted';
}

/** Deletes the marks whose window ended and the salts of days before yesterday. */
export async function pruneViews(ctx: AppContext, now = new Date()): Promise<void> {
  await ctx.db.delete(publicationViewMarks).where(lt(publicationViewMarks.expiresAt, now));
  await ctx.db.delete(viewSalts).where(lt(viewSalts.day, utcDay(new Date(now.getTime() - 86_400_000))));
}

/* ------------------------------------------------------------------ beacons answered before they are written */

const pending = new Set<Promise<unknown>>();

/** Runs a beacon's write after its answer has left; a failure is logged, never thrown to anyone. */
export function inBackground(ctx: AppContext, work: () => Promise<unknown>): void {
  // Started once the answer has been written out (the next turn of the event loop), never before it.
  const running = new Promise<void>((resolve) => setImmediate(resolve))
    .then(work)
    .catch((error: unknown) => ctx.logger.warn({ err: error }, 'A view beacon could not be counted.'))
    .finally(() => pending.delete(running));
  pending.add(running);
}

/** Resolves once every beacon write started so far has ended (tests, and the app's shutdown). */
export async function viewWritesSettled(): Promise<void> {
  while (pending.size) await Promise.allSettled([...pending]);
}

/* ------------------------------------------------------------------ what the company reads */

const ZERO: TViewCounts = { started: 0, p25: 0, p50: 0, p75: 0, p100: 0 };
const sums = {
  started: sql<number>`coalesce(sum(${publicationViews.started}), 0)::int`,
  p25: sql<number>`coalesce(sum(${publicationViews.p25}), 0)::int`,
  p50: sql<number>`coalesce(sum(${publicationViews.p50}), 0)::int`,
  p75: sql<number>`coalesce(sum(${publicationViews.p75}), 0)::int`,
  p100: sql<number>`coalesce(sum(${publicationViews.p100}), 0)::int`,
};
const counts = (row: Partial<TViewCounts> | undefined): TViewCounts => ({
  started: Number(row?.started ?? 0),
  p25: Number(row?.p25 ?? 0),
  p50: Number(row?.p50 ?? 0),
  p75: Number(row?.p75 ?? 0),
  p100: Number(row?.p100 ?? 0),
});

/** Totals of each of the given publications (all days); a publication without views gets zeros. */
export async function totalsOf(ctx: AppContext, publicationIds: string[]): Promise<Map<string, TViewCounts>> {
  const totals = new Map<string, TViewCounts>(publicationIds.map((id) => [id, { ...ZERO }]));
  if (!publicationIds.length) return totals;
  const rows = await ctx.db
    .select({ publicationId: publicationViews.publicationId, ...sums })
    .from(publicationViews)
    .where(inArray(publicationViews.publicationId, publicationIds))
    .groupBy(publicationViews.publicationId);
  for (const row of rows) totals.set(row.publicationId, counts(row));
  return totals;
}

/**
 * The daily series of the company's publication (`publicationId`) or of all the publications of its
 * testimonial (`testimonialId`, taken down ones included: their views happened): the last `days` days
 * up to today (UTC), oldest first, every day present. Another company's id is a 404.
 */
export async function viewSeries(
  ctx: AppContext,
  input: { companyId: string; days: number; now?: Date } & ({ publicationId: string } | { testimonialId: string }),
): Promise<TViewSeriesResponse> {
  const now = input.now ?? new Date();
  let ids: string[];
  let published: number;
  if ('publicationId' in input) {
    const [row] = await ctx.db
      .select({ id: publications.id, unpublishedAt: publications.unpublishedAt })
      .from(publications)
      .where(and(eq(publications.id, input.publicationId), eq(publications.companyId, input.companyId)));
    if (!row) throw new AppError('not_found', { message: 'This publication does not exist.' });
    ids = [row.id];
    published = row.unpublishedAt ? 0 : 1;
  } else {
    const [request] = await ctx.db
      .select({ id: testimonialRequests.id })
      .from(testimonialRequests)
      .where(and(eq(testimonialRequests.id, input.testimonialId), eq(testimonialRequests.companyId, input.companyId)));
    if (!request) throw new AppError('not_found', { message: 'This testimonial does not exist or was deleted.' });
    const rows = await ctx.db
      .select({ id: publications.id, unpublishedAt: publications.unpublishedAt })
      .from(publications)
      .where(and(eq(publications.requestId, request.id), eq(publications.companyId, input.companyId)));
    ids = rows.map((r) => r.id);
    published = rows.filter((r) => !r.unpublishedAt).length;
  }
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (input.days - 1)));
  const byDay = new Map<string, TViewCounts>();
  let totals = { ...ZERO };
  if (ids.length) {
    const [daily, [all]] = await Promise.all([
      ctx.db
        .select({ day: publicationViews.day, ...sums })
        .from(publicationViews)
        .where(and(inArray(publicationViews.publicationId, ids), gte(publicationViews.day, utcDay(first))))
        .groupBy(publicationViews.day),
      ctx.db.select(sums).from(publicationViews).where(inArray(publicationViews.publicationId, ids)),
    ]);
    for (const row of daily) byDay.set(String(row.day).slice(0, 10), counts(row));
    totals = counts(all);
  }
  const days = Array.from({ length: input.days }, (_, i) => {
    const day = utcDay(new Date(first.getTime() + i * 86_400_000));
    const c = byDay.get(day) ?? ZERO;
    return { day, ...c, completed: c.p100 };
  });
  return { days, totals, published };
}

/** Plays per testimonial of the company (those with at least one), for the testimonials list. */
export async function playsByTestimonial(ctx: AppContext, input: { companyId: string }): Promise<TTestimonialPlaysResponse> {
  const rows = await ctx.db
    .select({ testimonialId: publications.requestId, plays: sums.started })
    .from(publicationViews)
    .innerJoin(publications, eq(publications.id, publicationViews.publicationId))
    .where(eq(publications.companyId, input.companyId))
    .groupBy(publications.requestId);
  return { testimonials: rows.map((r) => ({ testimonialId: r.testimonialId, plays: Number(r.plays) })).filter((r) => r.plays > 0) };
}

