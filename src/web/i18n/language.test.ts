import { describe, expect, it } from 'vitest';
import { cookieDomainFor } from './cookie-domain';
import { toSupportedLanguage } from './language';

describe('toSupportedLanguage', () => {
  it('reduces regional codes to the base language', () => {
    expect(toSupportedLanguage('fr-CA')).toBe('fr');
    expect(toSupportedLanguage('en_US')).toBe('en');
    expect(toSupportedLanguage('FR')).toBe('fr');
  });

  it('refuses languages that are not offered', () => {
    expect(toSupportedLanguage('de-DE')).toBeNull();
    expect(toSupportedLanguage('')).toBeNull();
    expect(toSupportedLanguage(undefined)).toBeNull();
  });
});

describe('cookieDomainFor', () => {
  it('drops a leading www', () => {
    expect(cookieDomainFor('www.vouchreel.com')).toBe('vouchreel.com');
    expect(cookieDomainFor('app.vouchreel.com')).toBe('app.vouchreel.com');
  });

  it('leaves the domain out where browsers refuse it', () => {
    expect(cookieDomainFor('localhost')).toBeUndefined();
    expect(cookieDomainFor('app.localhost')).toBeUndefined();
    expect(cookieDomainFor('127.0.0.1')).toBeUndefined();
    expect(cookieDomainFor('[::1]')).toBeUndefined();
    expect(cookieDomainFor('intranet')).toBeUndefined();
  });
});
