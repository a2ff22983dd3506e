import { describe, expect, it } from 'vitest';
import { isAlreadySent } from './refusal-message';

describe('isAlreadySent', () => {
  it("reads 'already sent' from the server's reason, or from a 409 that gives none", () => {
    expect(isAlreadySent({ status: 409, reason: 'already_sent', params: {} })).toBe(true);
    expect(isAlreadySent({ status: 409, reason: null, params: {} })).toBe(true);
  });

  it('never reads a 409 naming another reason, nor another status, as already sent', () => {
    expect(isAlreadySent({ status: 409, reason: 'email_code_required', params: { language: 'fr' } })).toBe(false);
    expect(isAlreadySent({ status: 410, reason: 'link_expired', params: {} })).toBe(false);
    expect(isAlreadySent({ status: 404, reason: null, params: {} })).toBe(false);
  });
});
