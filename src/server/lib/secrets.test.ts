import { randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { containsKnownSample, KNOWN_SAMPLE_SECRETS, MIN_BITS_PER_CHAR, observedBitsPerChar, weakSecretReason } from './secrets.js';

const SAMPLES = 2000;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SYMBOLS = `${ALNUM}!@#$%^&*()-_=+[]{};:,.<>/?~`;
const password = (length: number, alphabet: string) => Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');

/**
 * What operators are told to run, or use: each generator with the bar (bits) of the variable it usually
 * fills. A password manager's passwords are checked against the rules of the value alone (bar 0): the
 * estimate of their bits in all (length times bits per character) is not what this test is about.
 */
const GENERATORS: Array<[string, () => string, number]> = [
  ['openssl rand -hex 16 (an S3 provider’s key)', () => randomBytes(16).toString('hex'), 80],
  ['openssl rand -hex 32', () => randomBytes(32).toString('hex'), 128],
  ['openssl rand -base64 32', () => randomBytes(32).toString('base64'), 128],
  ['randomBytes(48).toString("base64url")', () => randomBytes(48).toString('base64url'), 128],
  ['a 40-character S3 secret', () => password(40, `${ALNUM}+/`), 128],
  ['a 20-character password of letters and digits', () => password(20, ALNUM), 0],
  ['a 24-character password with symbols', () => password(24, SYMBOLS), 0],
  ['a 32-character password of letters and digits', () => password(32, ALNUM), 0],
];

describe('weakSecretReason on honest generators', () => {
  it.each(GENERATORS)('never refuses %s (2000 samples), with room to spare per character', (_name, make, bits) => {
    let least = Infinity;
    for (let i = 0; i < SAMPLES; i++) {
      const value = make();
      least = Math.min(least, observedBitsPerChar(value));
      expect(weakSecretReason(value, bits), value).toBeUndefined();
    }
    // The least seen stays clear of the floor: short hex, the lowest, measures 2.76 at worst in a million.
    expect(least).toBeGreaterThan(MIN_BITS_PER_CHAR + 0.2);
  });
});

describe('weakSecretReason on what an attacker would try', () => {
  it('refuses any value with a published sample in it, however cased or separated', () => {
    for (const value of [
      'vouchreel-secret-vouchreel-secret-1234',
      'xx-vouchreel-secret-yy-long-random-tail',
      'VOUCHREEL-SECRET',
      'Vouchreel_Secret_9f8e7d6c5b4a39281706f5e4d3c2b1a0',
      `${randomBytes(24).toString('hex')}minioadmin`,
      `prefix-${'change-me-metrics-token-0123456789'.toUpperCase()}-suffix`,
      'my.v.o.u.c.h.r.e.e.l.k3y-7Gq!xZ2#pL9@wR4$',
    ]) {
      expect(containsKnownSample(value), value).toBe(true);
      expect(weakSecretReason(value, 0), value).toMatch(/published sample value/);
    }
    expect(weakSecretReason('vouchreel-secret', 0)).toBe('is a published sample value');
    expect(weakSecretReason('vouchreel-secret-vouchreel-secret-1234', 0)).toBe('contains a published sample value');
  });

  it('refuses a phrase said over and over, even with something added', () => {
    for (const value of ['acme-secret-acme-secret-acme-secret-2024', 'password1password1password1password1x', `${'correct horse '.repeat(6)}!9`, `${randomBytes(8).toString('hex')}-supersecret-supersecret`]) {
      expect(weakSecretReason(value, 0), value).toMatch(/repeats a part of itself|repeated or sequential/);
    }
  });

  it('refuses little entropy per character whatever the length', () => {
    // A de Bruijn sequence of four letters (every 5 letters once: no part repeated) and six more
    // characters: 1030 characters of 2 bits each pass every other rule and ~2000 bits by length.
    const value = `${deBruijn('aekq', 5)}EFGHIJ`;
    expect(value).toHaveLength(1030);
    expect(observedBitsPerChar(value)).toBeLessThan(MIN_BITS_PER_CHAR);
    expect(weakSecretReason(value, 128)).toBe(`has too little entropy per character (about ${observedBitsPerChar(value).toFixed(1)} bits; at least ${MIN_BITS_PER_CHAR} needed)`);
    // A value of rich characters at the same length is not refused.
    expect(weakSecretReason(randomBytes(700).toString('base64url'), 128)).toBeUndefined();
  });

  it('keeps every sample lower-cased, as compared', () => {
    expect(KNOWN_SAMPLE_SECRETS.every((v) => v === v.toLowerCase())).toBe(true);
  });
});

/** The de Bruijn sequence of `alphabet` and order n (each string of n letters appears once, cyclically). */
function deBruijn(alphabet: string, n: number): string {
  const k = alphabet.length;
  const a = new Array<number>(k * n).fill(0);
  const out: number[] = [];
  const db = (t: number, p: number): void => {
    if (t > n) {
      if (n % p === 0) out.push(...a.slice(1, p + 1));
      return;
    }
    a[t] = a[t - p]!;
    db(t + 1, p);
    for (let j = a[t - p]! + 1; j < k; j++) {
      a[t] = j;
      db(t + 1, t);
    }
  };
  db(1, 1);
  return out.map((i) => alphabet[i]).join('');
}
