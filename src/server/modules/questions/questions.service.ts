import { and, asc, eq, gt, gte, lt, lte, sql } from 'drizzle-orm';
import type { TQuestion } from '../../../contract/api/questions.schema.js';
import type { TLanguage } from '../../../contract/constants.js';
import { questionTextIn } from '../../../contract/question-text.js';
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

/**
 * The texts a call sends (decision 165): `text` is the text in the company's mail language (what
 * clients sent before questions had two languages); `text_en` / `text_fr` name their language. An
 * absent field is left as it is; an empty one (or null) means 'no text in this language'.
 */
export interface QuestionTextsInput {
  text?: string | undefined;
  text_en?: string | null | undefined;
  text_fr?: string | null | undefined;
}

async function mailLanguage(tx: DbOrTx, companyId: string): Promise<TLanguage> {
  const [row] = await tx.select({ lang: companies.mailLanguage }).from(companies).where(eq(companies.id, companyId)).limit(1);
  return row?.lang === 'fr' ? 'fr' : 'en';
}

const toQuestion = (q: Row, lang: TLanguage): TQuestion => {
  const texts = { text_en: q.textEn, text_fr: q.textFr };
  return { id: q.id, text: questionTextIn(texts, lang), ...texts, order_position: q.orderPosition, company_id: q.companyId };
};

/** The texts once `input` is applied to `current`; refused when both would be empty, or when `text` comes with a language's field. */
function applyTexts(input: QuestionTextsInput, current: { textEn: string | null; textFr: string | null }, lang: TLanguage) {
  const named = input.text_en !== undefined || input.text_fr !== undefined;
  if (input.text !== undefined && named) {
    throw new AppError('invalid_data', { reason: 'question_text_ambiguous', field: 'text' });
  }
  const next = { ...current };
  if (input.text !== undefined) {
    if (lang === 'fr') next.textFr = input.text;
    else next.textEn = input.text;
  }
  if (input.text_en !== undefined) next.textEn = input.text_en;
  if (input.text_fr !== undefined) next.textFr = input.text_fr;
  const textEn = next.textEn?.trim() || null;
  const textFr = next.textFr?.trim() || null;
  if (!textEn && !textFr) throw new AppError('invalid_data', { reason: 'question_text_required', field: 'text_en' });
  return { textEn, textFr };
}

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
  const lang = await mailLanguage(ctx.db, companyId);
  const rows = await ctx.db.select().from(questions).where(eq(questions.companyId, companyId)).orderBy(asc(questions.orderPosition));
  return rows.map((row) => toQuestion(row, lang));
}

/** Inserts at the requested position (clamped to 1..n+1; the client sends n+1), shifting the ones after. */
export async function addQuestion(ctx: AppContext, input: QuestionTextsInput & { companyId: string; orderPosition: number }): Promise<TQuestion> {
  return ctx.db.transaction(async (tx) => {
    const lang = await mailLanguage(tx, input.companyId);
    const texts = applyTexts(input, { textEn: null, textFr: null }, lang);
    await lockCompany(tx, input.companyId);
    const count = await countQuestions(tx, input.companyId);
    const position = Math.min(Math.max(1, input.orderPosition), count + 1);
    await tx
      .update(questions)
      .set({ orderPosition: sql`${questions.orderPosition} + 1` })
      .where(and(eq(questions.companyId, input.companyId), gte(questions.orderPosition, position)));
    const [row] = await tx.insert(questions).values({ companyId: input.companyId, ...texts, orderPosition: position }).returning();
    if (!row) throw new Error('question not inserted');
    return toQuestion(row, lang);
  });
}

export async function editQuestion(ctx: AppContext, input: QuestionTextsInput & { companyId: string; id: string }): Promise<TQuestion> {
  return ctx.db.transaction(async (tx) => {
    const current = await findOwned(tx, input.companyId, input.id);
    const lang = await mailLanguage(tx, input.companyId);
    const texts = applyTexts(input, current, lang);
    const [row] = await tx.update(questions).set({ ...texts, updatedAt: new Date() }).where(eq(questions.id, input.id)).returning();
    return toQuestion(row!, lang);
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
