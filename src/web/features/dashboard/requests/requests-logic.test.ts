import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { isQuestionInUseError } from '../api/delete-question';
import { requestLanguageFor } from './request-language';
import { INITIAL_STATUS_FILTER, matchesStatusFilter } from './status-filter';

describe('status filter', () => {
  it("starts at 'new', which shows the pending requests", () => {
    expect(INITIAL_STATUS_FILTER).toBe('new');
    expect(matchesStatusFilter({ status: 'pending' }, 'new')).toBe(true);
    expect(matchesStatusFilter({ status: 'completed' }, 'new')).toBe(false);
    expect(matchesStatusFilter({ status: 'expired' }, 'new')).toBe(false);
  });

  it('filters completed and expired, and shows everything under all', () => {
    expect(matchesStatusFilter({ status: 'completed' }, 'completed')).toBe(true);
    expect(matchesStatusFilter({ status: 'pending' }, 'completed')).toBe(false);
    expect(matchesStatusFilter({ status: 'expired' }, 'expired')).toBe(true);
    for (const status of ['pending', 'completed', 'expired'] as const) expect(matchesStatusFilter({ status }, 'all')).toBe(true);
  });
});

describe('request language', () => {
  it('follows the interface language, English by default', () => {
    expect(requestLanguageFor('fr')).toBe('french');
    expect(requestLanguageFor('en')).toBe('english');
    expect(requestLanguageFor('de')).toBe('english');
  });
});

describe('question in use', () => {
  const refusal = (message: string, status = 409) => new ApiError({ status, code: 'invalid_data', message });

  it("recognises the server's refusal by its text", () => {
    expect(isQuestionInUseError(refusal('This question is being used by a request.'))).toBe(true);
    expect(isQuestionInUseError(refusal('Used in existing testimonial responses.'))).toBe(true);
    expect(isQuestionInUseError(refusal('Server error', 500))).toBe(false);
    expect(isQuestionInUseError(new Error('being used'))).toBe(false);
  });
});
