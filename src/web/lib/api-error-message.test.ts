// @vitest-environment jsdom
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API } from '../../contract/api/paths.js';
import { ERROR_REASON_MESSAGES, ERROR_REASONS, errorReasonMessage, type TErrorReason } from '../../contract/error-reasons.js';
import type { TApiError } from '../../contract/errors.js';
import en from '../i18n/en.json';
import fr from '../i18n/fr.json';
import i18n from '../i18n/i18n';
import { ApiError, createApiClient } from './api-client';
import { apiErrorMessage } from './api-error-message';

/**
 * The message of a failed call, from the real client reading an error answer in the contract's shape
 * (the stand-in below answers as the server's error handler does) and the real translations.
 */

const PATH = API.questions.list.path;

/** The error a call gets when the server answers `status` with `body`. */
async function failedCall(status: number, body: unknown): Promise<unknown> {
  const client = createApiClient({
    fetch: async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
    navigate: () => undefined,
    currentPath: () => '/dashboard',
  });
  try {
    await client.apiFetch(PATH, { schema: z.object({}) });
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

const answer = (code: TApiError['code'], reason: TErrorReason, params: Record<string, string | number> = {}): TApiError => ({
  error: errorReasonMessage(reason, params),
  code,
  reason,
  params,
});

const fr_ = () => i18n.getFixedT('fr');
const en_ = () => i18n.getFixedT('en');

// Each catalogue is its own chunk, loaded on demand (docs/decisions/141): load both here.
beforeAll(async () => {
  await i18n.loadLanguages(['en', 'fr']);
});

beforeEach(() => {
  localStorage.clear();
});

describe('apiErrorMessage with a reason', () => {
  it('shows the translation of the reason with its parameters, in the language of the page', async () => {
    const error = await failedCall(409, answer('conflict', 'question_in_use'));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).reason).toBe('question_in_use');
    expect(apiErrorMessage(error, fr_())).toBe(
      'Cette question ne peut pas être supprimée car elle est utilisée dans des demandes ou des réponses de témoignage existantes.',
    );
    expect(apiErrorMessage(error, en_())).toBe(ERROR_REASON_MESSAGES.question_in_use);

    const expired = await failedCall(410, answer('invalid_data', 'link_expired', { company: 'Fleurs & Co', language: 'fr' }));
    expect((expired as ApiError).params).toEqual({ company: 'Fleurs & Co', language: 'fr' });
    expect(apiErrorMessage(expired, fr_())).toBe('Ce lien a expiré. Demandez-en un nouveau à Fleurs & Co.');
  });

  it('prefers the reason to the auth error key and to the code', async () => {
    const limited = await failedCall(429, { ...answer('rate_limited', 'upload_budget_exhausted'), errorKey: 'rateLimited' });
    expect(apiErrorMessage(limited, fr_())).toBe(
      'Trop de vidéos ont été envoyées depuis votre connexion au cours de la dernière heure. Patientez un peu, puis réessayez.',
    );
  });

  it("keeps today's behaviour without a reason, or with one this page does not know", async () => {
    const unknownReason = await failedCall(409, { error: 'Something new.', code: 'conflict', reason: 'from_a_newer_server', params: {} });
    expect(apiErrorMessage(unknownReason, fr_())).toBe(fr.errors.codes.conflict);

    const keyed = await failedCall(403, { error: 'Confirm your e-mail first.', code: 'no_permission', errorKey: 'emailUnconfirmed' });
    expect(apiErrorMessage(keyed, en_())).toBe(en.auth.errors.emailUnconfirmed);

    const coded = await failedCall(400, { error: 'name: too long.', code: 'invalid_data', field: 'name' });
    expect(apiErrorMessage(coded, fr_())).toBe(fr.errors.codes.invalid_data);

    expect(apiErrorMessage(new ApiError({ status: 0, code: 'unknown', message: 'offline', reason: 'link_invalid' }), en_())).toBe(en.auth.generic);
    expect(apiErrorMessage(new Error('boom'), en_())).toBe(en.auth.generic);
  });
});

describe('the reasons of the contract', () => {
  const placeholders = (text: string) => [...new Set([...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]))].sort();
  const reasonsOf = (catalogue: { errors: { reasons: Record<string, string> } }) => catalogue.errors.reasons;

  it('are each translated in English and French, with the parameters of the English message', () => {
    for (const reason of ERROR_REASONS) {
      const english = reasonsOf(en)[reason];
      const french = reasonsOf(fr)[reason];
      expect(english, reason).toEqual(expect.any(String));
      expect(french, reason).toEqual(expect.any(String));
      expect(placeholders(english!), reason).toEqual(placeholders(ERROR_REASON_MESSAGES[reason]));
      expect(placeholders(french!), reason).toEqual(placeholders(ERROR_REASON_MESSAGES[reason]));
    }
    // No translation of a reason the contract does not define.
    expect(Object.keys(reasonsOf(en)).sort()).toEqual([...ERROR_REASONS].sort());
  });
});
