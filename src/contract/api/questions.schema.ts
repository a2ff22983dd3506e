/**
 * Questions of a company (spec: company dashboard §3 Question, §5, §7; issue 4).
 * Positions are 1-based and dense per company.
 */
import { z } from 'zod';
import { QUESTION_MAX_LENGTH } from '../constants.js';
import { ZCompanyIdQuery, ZId, ZSuccessResponse, optionalText, requiredText } from './common.js';

/** The question text: trimmed, required, at most QUESTION_MAX_LENGTH characters. */
export const ZQuestionText = requiredText('Question', QUESTION_MAX_LENGTH);

/**
 * The text in one language (decision 165): trimmed, at most QUESTION_MAX_LENGTH characters; empty or
 * null means 'no text in this language'. One of the two languages must keep a text (checked by the
 * server, reason `question_text_required`).
 */
const languageText = (label: string) => optionalText(label, QUESTION_MAX_LENGTH).nullable();
export const ZQuestionTextEn = languageText('English text');
export const ZQuestionTextFr = languageText('French text');

/** A 1-based position in the company's ordered list. */
export const ZQuestionPosition = z
  .number({ error: 'Position must be a number' })
  .int('Position must be a whole number')
  .min(1, 'Position must be at least 1');

/**
 * A question. `text_en` and `text_fr`: its text in each language, null where it has none (never both).
 * `text`: the text in the company's mail language, or the other one's where that is missing (what a
 * client that knows one text shows).
 */
export const ZQuestion = z.object({
  id: ZId,
  text: z.string(),
  text_en: z.string().nullable(),
  text_fr: z.string().nullable(),
  order_position: z.number().int().min(1),
  company_id: ZId,
});
export type TQuestion = z.infer<typeof ZQuestion>;

/* ------------------------------------------------------------------ GET /api/questions/list */

/** `?company_id=…&_t=…` (`_t`: the client's cache-busting timestamp, ignored by the server). */
export const ZQuestionsListQuery = ZCompanyIdQuery.extend({
  _t: z.string().optional(),
});
export type TQuestionsListQuery = z.infer<typeof ZQuestionsListQuery>;

/** The company's questions, sorted by order_position. */
export const ZQuestionsListResponse = z.array(ZQuestion);
export type TQuestionsListResponse = z.infer<typeof ZQuestionsListResponse>;

/* ------------------------------------------------------------------ POST /api/questions/add */

/**
 * Either `text` (the text in the company's mail language, as before decision 165) or `text_en` and/or
 * `text_fr`; not `text` with either of them. At least one non-empty text.
 */
export const ZAddQuestionBody = z.object({
  company_id: ZId,
  text: ZQuestionText.optional(),
  text_en: ZQuestionTextEn.optional(),
  text_fr: ZQuestionTextFr.optional(),
  /** The client sends count + 1; the server appends at the end whatever the value. */
  order_position: ZQuestionPosition,
});
export type TAddQuestionBody = z.infer<typeof ZAddQuestionBody>;

/** The new question. */
export const ZAddQuestionResponse = ZQuestion;
export type TAddQuestionResponse = z.infer<typeof ZAddQuestionResponse>;

/* ------------------------------------------------------------------ POST /api/questions/edit */

/**
 * `text` replaces the text in the company's mail language and keeps the other; `text_en` / `text_fr`
 * replace the text in their language (empty or null removes it), an absent one is kept. Not `text`
 * with either of them; at least one non-empty text must remain.
 */
export const ZEditQuestionBody = z.object({
  id: ZId,
  company_id: ZId,
  text: ZQuestionText.optional(),
  text_en: ZQuestionTextEn.optional(),
  text_fr: ZQuestionTextFr.optional(),
});
export type TEditQuestionBody = z.infer<typeof ZEditQuestionBody>;

/** The updated question. */
export const ZEditQuestionResponse = ZQuestion;
export type TEditQuestionResponse = z.infer<typeof ZEditQuestionResponse>;

/* ------------------------------------------------------------------ POST /api/questions/delete */

export const ZDeleteQuestionBody = z.object({
  id: ZId,
  company_id: ZId,
});
export type TDeleteQuestionBody = z.infer<typeof ZDeleteQuestionBody>;

/** Done. A question used by a testimonial response is refused with an error whose text contains 'being used'. */
export const ZDeleteQuestionResponse = ZSuccessResponse;
export type TDeleteQuestionResponse = z.infer<typeof ZDeleteQuestionResponse>;

/** The text the server's refusal contains, which the client turns into the message of §8. */
export const QUESTION_IN_USE_MARKER = 'being used';

/* ------------------------------------------------------------------ POST /api/questions/update-position */

export const ZUpdateQuestionPositionBody = z.object({
  id: ZId,
  company_id: ZId,
  old_position: ZQuestionPosition,
  new_position: ZQuestionPosition,
});
export type TUpdateQuestionPositionBody = z.infer<typeof ZUpdateQuestionPositionBody>;

/** Done; the other questions moved so that positions stay 1..n. */
export const ZUpdateQuestionPositionResponse = ZSuccessResponse;
export type TUpdateQuestionPositionResponse = z.infer<typeof ZUpdateQuestionPositionResponse>;
