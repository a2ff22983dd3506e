import { and, asc, eq, gt, gte, lt, lte, sql } from 'drizzle-orm';
import type { TQuestion } from '../../../contract/api/questions.schema.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { companies, questions, requestQuestions } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';

/**
 * The company's ordered questions. Positions stay dense (1..n) and unique per company: every change
 * runs in one transaction that first locks the company row, so concurrent calls queue up instead of
 * interleaving, and a deferred unique constraint checks the result at commit.
 */

type Row = typeof questions.$inferSelect;
const toQuestion = (q: Row): TQuestion => ({ id: q.id, text: q.text, order_position: q.orderPosition, company_id: q.companyId });

async function lockCompany(tx: DbOrTx, companyId: string) {
  await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
}

async function countQuestions(tx: DbOrTx, companyId: string): Promise<number> {
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(questions).where(eq(questions.companyId, companyId));
  return row?.n ?? 0;
}

async function findOwned(tx: DbOrTx, companyId: string, id: string): Promise<Row> {
  const [row] = await tx.select().from(questions).where(eq(questions.id, id)).limit(1);
  if (!row) throw new AppError('not_found', { message: 'This question does not exist (it may have been deleted).' });
  if (row.companyId !== companyId) throw new AppError('no_permission', { message: 'You do not have permission to change this question.' });
  return row;
}

export async function listQuestions(ctx: AppContext, companyId: string): Promise<TQuestion[]> {
  const rows = await ctx.db.select().from(questions).where(eq(questions.companyId, companyId)).orderBy(asc(questions.orderPosition));
  return rows.map(toQuestion);
}

/** Inserts at the requested position (clamped to 1..n+1; the client sends n+1), shifting the ones after. */
export async function addQuestion(ctx: AppContext, input: { companyId: string; text: string; orderPosition: number }): Promise<TQuestion> {
  return ctx.db.transaction(async (tx) => {
    await lockCompany(tx, input.companyId);
    const count = await countQuestions(tx, input.companyId);
    const position = Math.min(Math.max(1, input.orderPosition), count + 1);
    await tx
      .update(questions)
      .set({ orderPosition: sql`${questions.orderPosition} + 1` })
      .where(and(eq(questions.companyId, input.companyId), gte(questions.orderPosition, position)));
    const [row] = await tx.insert(questions).values({ companyId: input.companyId, text: input.text, orderPosition: position }).returning();
    if (!row) throw new Error('question not inserted');
    return toQuestion(row);
  });
}

export async function editQuestion(ctx: AppContext, input: { companyId: string; id: string; text: string }): Promise<TQuestion> {
  return ctx.db.transaction(async (tx) => {
    await findOwned(tx, input.companyId, input.id);
    const [row] = await tx.update(questions).set({ text: input.text, updatedAt: new Date() }).where(eq(questions.id, input.id)).returning();
    return toQuestion(row!);
  });
}

/** Deletes and closes the gap. A question asked in a sent request or answered is kept: it is in use. */
export async function deleteQuestion(ctx: AppContext, input: { companyId: string; id: string }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockCompany(tx, input.companyId);
    const row = await findOwned(tx, input.companyId, input.id);
    const [used] = await tx.select({ n: sql<number>`count(*)::int` }).from(requestQuestions).where(eq(requestQuestions.questionId, input.id));
    if ((used?.n ?? 0) > 0) {
      // The reason's English message contains QUESTION_IN_USE_MARKER, which older clients look for.
      throw new AppError('conflict', { reason: 'question_in_use' });
    }
    await tx.delete(questions).where(eq(questions.id, input.id));
    await tx
      .update(questions)
      .set({ orderPosition: sql`${questions.orderPosition} - 1` })
      .where(and(eq(questions.companyId, input.companyId), gt(questions.orderPosition, row.orderPosition)));
  });
}

/**
 * Moves a question to `newPosition` (clamped to 1..n), shifting the ones in between. Works from the
 * question's current position, so a client with a stale `old_position` cannot break the order.
 */
export async function moveQuestion(ctx: AppContext, input: { companyId: string; id: string; newPosition: number }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockCompany(tx, input.companyId);
    const row = await findOwned(tx, input.companyId, input.id);
    const count = await countQuestions(tx, input.companyId);
    const from = row.orderPosition;
    const to = Math.min(Math.max(1, input.newPosition), count);
    if (from === to) return;
    const scope = eq(questions.companyId, input.companyId);
    if (to < from) {
      await tx
        .update(questions)
        .set({ orderPosition: sql`${questions.orderPosition} + 1` })
        .where(and(scope, gte(questions.orderPosition, to), lt(questions.orderPosition, from)));
    } else {
      await tx
        .update(questions)
        .set({ orderPosition: sql`${questions.orderPosition} - 1` })
        .where(and(scope, gt(questions.orderPosition, from), lte(questions.orderPosition, to)));
    }
    await tx.update(questions).set({ orderPosition: to, updatedAt: new Date() }).where(eq(questions.id, input.id));
  });
}
