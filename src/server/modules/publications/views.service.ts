import { createHmac, randomBytes } from 'node:crypto';
import { and, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { type TTestimonialPlaysResponse, type TViewCounts, type TViewMilestone, type TViewSeriesResponse } from '../../../contract/api/views.schema.js';
import type { AppContext } from '../../context.js';
import { publicationViewMarks, publicationViews, publications, testimonialRequests, viewSalts } from '../../db/schema.js';
import { addressGroup, type WindowCounters } from '../../http/rate-limit.js';
import { AppError } from '../../lib/errors.js';
import { readViewToken, viewTokenKey } from './views.token.js';

/**
 * View analytics (issue 19, decisions 144 and 155). A player reports when its video starts and when it
 * passes 25/50/75/100 %; a milestone counts only with the view token its page was served with (a page,
 * embed or wall of ours, for this publication, less than two hours ago), once per token, in order
 * (started, then p25, …), and at most VIEW_CEILING_PER_MINUTE times per address, publication, milestone
 * and minute, into a row per publication and day. The viewer is the token's random nonce, drawn by the
 * server: no header the client chooses. Only a salted hash of it is kept, in `publication_view_marks`
 * until the token expires, never beside the counts; no cookie is read or set.
 */

/**
 * Counted milestones of one kind per address group, publication and minute (decision 155): a script
 * that fetches the page again for each fresh token adds at most this many views a minute from one
 * address, and a meeting room where a few people start the same video together is still counted.
 * In each API process's memory, like the app's other limits.
 */
export const VIEW_CEILING_PER_MINUTE = 5;
const CEILING_WINDOW_MS = 60_000;

/** The milestone that must have been counted for the same viewer before this one counts. */
const PREVIOUS: Record<TViewMilestone, TViewMilestone | null> = { started: null, p25: 'started', p50: 'p25', p75: 'p50', p100: 'p75' };

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
export async function saltOf(ctx: AppContext, day: string): Promise<Buffer> {
  const known = salts.get(day);
  if (known) return known;
  await ctx.db.insert(viewSalts).values({ day, salt: randomBytes(32).toString('base64') }).onConflictDoNothing();
  const [row] = await ctx.db.select({ salt: viewSalts.salt }).from(viewSalts).where(eq(viewSalts.day, day));
  const salt = Buffer.from(row!.salt, 'base64');
  for (const old of salts.keys()) if (old < day) salts.delete(old);
  salts.set(day, salt);
  return salt;
}

/**
 * The viewer of a token, as its marks name it: a hash of the token's nonce and the slug, salted with the
 * salt of the day the token was issued (so a token counts once even across midnight). Nothing in it can
 * be turned back into the token, let alone an address.
 */
export async function viewerOf(ctx: AppContext, input: { nonce: string; slug: string; issuedAt: Date }): Promise<string> {
  const salt = await saltOf(ctx, utcDay(input.issuedAt));
  return createHmac('sha256', salt).update(`${input.nonce}\n${input.slug}`).digest('base64url');
}

/**
 * What became of a beacon: counted; sent by a bot; without a valid token for this slug; for a slug not
 * live; past the ceiling of its address; or out of turn (this viewer had it counted already, or not the
 * milestone before it).
 */
export type BeaconOutcome = 'counted' | 'bot' | 'no-token' | 'unknown' | 'ceiling' | 'out-of-turn';

let lastPrune = 0;

/**
 * Counts one beacon, or changes nothing (see BeaconOutcome). The caller answers the same whatever
 * happens. `ceiling` holds the per-address counters (the app's rateCounters).
 */
export async function recordBeacon(
  ctx: AppContext,
  input: { slug: string; milestone: TViewMilestone; token: string | undefined; ip: string; userAgent: string | undefined; ceiling: WindowCounters; now?: Date },
): Promise<BeaconOutcome> {
  const now = input.now ?? new Date();
  if (isBot(input.userAgent)) return 'bot';
  const token = readViewToken(viewTokenKey(ctx.secrets.jwt), input.slug, input.token, now.getTime());
  if (!token) return 'no-token';
  const [live] = await ctx.db
    .select({ id: publications.id })
    .from(publications)
    .where(and(eq(publications.slug, input.slug.slice(0, 64)), isNull(publications.unpublishedAt)));
  if (!live) return 'unknown';
  if (now.getTime() - lastPrune > 60_000) {
    lastPrune = now.getTime();
    await pruneViews(ctx, now);
  }
  // The ceiling is taken before the write and in one synchronous step, so that a burst of concurrent
  // beacons cannot all pass it; it is given back when the milestone turns out not to count.
  const ceilingKey = `view-ceiling:${addressGroup(input.ip)}:${input.slug}:${input.milestone}`;
  if (input.ceiling.hit(ceilingKey, CEILING_WINDOW_MS, now.getTime()).count > VIEW_CEILING_PER_MINUTE) return 'ceiling';
  const viewer = await viewerOf(ctx, { nonce: token.nonce, slug: input.slug, issuedAt: token.issuedAt });
  const mark = `${viewer}:${input.milestone}`;
  const previous = PREVIOUS[input.milestone];
  const inTurn = previous
    ? sql`exists (select 1 from publication_view_marks where mark = ${`${viewer}:${previous}`} and expires_at > ${now.toISOString()}::timestamptz)`
    : sql`true`;
  // One statement: the mark is written only when the milestone before it is there and it is not; a mark
  // lives as long as its token does, so a token counts each milestone once.
  const fresh = await ctx.db
    .insert(publicationViewMarks)
    .select(sql`select ${mark}::text, ${token.expiresAt.toISOString()}::timestamptz where ${inTurn}`)
    .onConflictDoNothing()
    .returning({ mark: publicationViewMarks.mark });
  if (!fresh.length) {
    input.ceiling.refund(ceilingKey, now.getTime());
    return 'out-of-turn';
  }
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

/** The last write of each viewer still running: a viewer's beacons are written one after the other. */
const lastOf = new Map<string, Promise<unknown>>();

/**
 * Runs a beacon's write after its answer has left; a failure is logged, never thrown to anyone. Writes
 * of one `viewer` (its token) run in the order their beacons came: a player that reaches the end sends
 * its missing milestones at once, and each counts only after the one before it (in one process; a
 * burst split between processes may lose a later milestone, never count one out of order).
 */
export function inBackground(ctx: AppContext, work: () => Promise<unknown>, viewer?: string): void {
  // Started once the answer has been written out (the next turn of the event loop), never before it.
  const turn = new Promise<void>((resolve) => setImmediate(resolve));
  const before = viewer ? lastOf.get(viewer) : undefined;
  const running: Promise<unknown> = (before ? Promise.all([turn, before]) : turn)
    .then(work)
    .catch((error: unknown) => ctx.logger.warn({ err: error }, 'A view beacon could not be counted.'))
    .finally(() => {
      pending.delete(running);
      if (viewer && lastOf.get(viewer) === running) lastOf.delete(viewer);
    });
  pending.add(running);
  if (viewer) lastOf.set(viewer, running);
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

