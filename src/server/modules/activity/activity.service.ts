import { and, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { TActivityEvent, TActivityPage, TActivityQuery, TActivitySubject } from '../../../contract/api/activity.schema.js';
import { ACTIVITY_EVENT_TYPES } from '../../../contract/api/activity.schema.js';
import type { AppContext } from '../../context.js';
import { companyEvents, memberships, testimonialRequests, users } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';

/**
 * The company's activity log (issue 32, decision 220): its `company_events`, newest first, by keyset
 * pages. The cursor is opaque to the client: base64url of the last row's time (microseconds, as the
 * database keeps it) and id, so that a page never repeats nor skips a row, even when new events arrive
 * between two pages or several share a millisecond.
 */

interface Cursor {
  at: string;
  id: string;
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.at}|${cursor.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(value: string): Cursor {
  const [at, id, ...rest] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  if (rest.length || !at || !id || !CURSOR_TIME.test(at) || !UUID.test(id) || Number.isNaN(Date.parse(at))) {
    throw new AppError('invalid_data', {
      reason: 'activity_cursor_invalid',
      field: 'cursor',
    });
  }
  return { at, id };
}

/** `YYYY-MM-DD` is a whole UTC day: from its start, to its end (the next day's start, excluded). */
function bound(value: string, end: boolean): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = new Date(`${value}T00:00:00.000Z`);
    return end ? new Date(day.getTime() + 86_400_000) : day;
  }
  return new Date(value);
}

const text = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

function subjectOf(data: Record<string, unknown>, customerName: string | null): TActivitySubject {
  return {
    testimonialId: text(data.testimonial_id),
    customerName: data.testimonial_id ? customerName : null,
    publicationId: text(data.publication_id),
    memberEmail: text(data.email),
    role: text(data.role),
    previousRole: text(data.previous_role),
    keyName: text(data.name),
    kind: text(data.kind) ?? text(data.delivery),
  };
}

export async function listActivity(ctx: AppContext, input: { companyId: string; query: TActivityQuery }): Promise<TActivityPage> {
  const { companyId, query } = input;
  const where: (SQL | undefined)[] = [eq(companyEvents.companyId, companyId)];
  // Only the log's types: a row of another kind (none today) never leaks through.
  where.push(inArray(companyEvents.type, query.type?.length ? query.type : [...ACTIVITY_EVENT_TYPES]));
  if (query.actor) where.push(eq(companyEvents.actorUserId, query.actor));
  if (query.from) where.push(gte(companyEvents.createdAt, bound(query.from, false)));
  if (query.to) where.push(lt(companyEvents.createdAt, bound(query.to, true)));
  if (query.cursor) {
    const { at, id } = decodeCursor(query.cursor);
    where.push(
      or(
        sql`${companyEvents.createdAt} < ${at}::timestamptz`,
        and(sql`${companyEvents.createdAt} = ${at}::timestamptz`, sql`${companyEvents.id} < ${id}::uuid`),
      ),
    );
  }
  const exactAt = sql<string>`to_char(${companyEvents.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  const rows = await ctx.db
    .select({
      id: companyEvents.id,
      type: companyEvents.type,
      data: companyEvents.data,
      createdAt: companyEvents.createdAt,
      exactAt,
      actorId: users.id,
      firstname: users.firstname,
      lastname: users.lastname,
      email: users.email,
      customerName: testimonialRequests.customerName,
    })
    .from(companyEvents)
    .leftJoin(users, eq(users.id, companyEvents.actorUserId))
    // The testimonial named by the event, of this same company only.
    .leftJoin(
      testimonialRequests,
      and(sql`${testimonialRequests.id}::text = ${companyEvents.data}->>'testimonial_id'`, eq(testimonialRequests.companyId, companyId)),
    )
    .where(and(...where))
    .orderBy(desc(companyEvents.createdAt), desc(companyEvents.id))
    .limit(query.limit + 1);

  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const events: TActivityEvent[] = page.map((row) => ({
    id: row.id,
    type: row.type as TActivityEvent['type'],
    at: row.createdAt.toISOString(),
    actor: row.actorId
      ? {
          id: row.actorId,
          name: `${row.firstname ?? ''} ${row.lastname ?? ''}`.trim() || row.email!,
          email: row.email!,
        }
      : null,
    subject: subjectOf(row.data, row.customerName),
  }));

  const members = await ctx.db
    .select({
      id: users.id,
      firstname: users.firstname,
      lastname: users.lastname,
      email: users.email,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.companyId, companyId))
    .orderBy(users.firstname, users.lastname);

  return {
    events,
    nextCursor: rows.length > query.limit && last ? encodeCursor({ at: last.exactAt, id: last.id }) : null,
    members: members.map((m) => ({
      id: m.id,
      name: `${m.firstname} ${m.lastname}`.trim() || m.email,
    })),
  };
}
