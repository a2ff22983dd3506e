import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';

export interface Secrets {
  jwt: string;
}

/**
 * JWT_SECRET when set (required in production); otherwise a random secret generated once and kept in
 * DATA_DIR/secrets.json, so sessions survive restarts of a development machine.
 */
export async function resolveSecrets(config: Pick<Config, 'jwtSecret' | 'dataDir'>): Promise<Secrets> {
  if (config.jwtSecret) return { jwt: config.jwtSecret };
  const file = path.join(config.dataDir, 'secrets.json');
  try {
    const stored = JSON.parse(await readFile(file, 'utf8')) as Partial<Secrets>;
    if (typeof stored.jwt === 'string' && stored.jwt.length >= 32) return { jwt: stored.jwt };
  } catch {
    // First start: generate below.
  }
  const secrets = { jwt: randomBytes(48).toString('base64url') };
  await writeFile(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}

/**
 * Values published as examples (the compose file and docs of earlier releases, test fixtures): anyone
 * can read them, so a production process must never sign or guard anything with them. Compared after
 * trimming and lower-casing. Never remove an entry: a published value stays public.
 */
export const KNOWN_SAMPLE_SECRETS: readonly string[] = [
  'change-me-change-me-change-me-change-me-0123456789',
  'change-me-metrics-token-0123456789',
  'vouchreel-secret',
  'vouchreel',
  'minioadmin',
  's3rver',
  'fleet-metrics-token-123456',
  'jwt-secret-marker-6c1f0e9a2b7d4c3e8f5a1b2c3d4e5f60',
  'metrics-token-marker',
  's3-secret-marker',
  'another-service-secret-that-is-long-enough-32',
  'whsec_test_secret_for_vouchreel',
];

/** A value's letters and digits alone, lower-cased: 'Vouchreel_Secret' and 'vouchreel-secret' are the same sample. */
const squeezed = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Whether the value has a published sample in it, whatever is around it (cased or separated differently). */
export function containsKnownSample(value: string): boolean {
  const lower = value.toLowerCase();
  const letters = squeezed(value);
  return KNOWN_SAMPLE_SECRETS.some((sample) => lower.includes(sample) || letters.includes(squeezed(sample)));
}

/**
 * The least observed entropy per character (Shannon, of the value's own character frequencies) of a
 * value that may guard production, whatever its length: a long value of few characters, or of a phrase
 * said over and over, is refused though its length times its per-character entropy would pass. Honest
 * generators stay well above it at their usual lengths (measured on a million samples each): `openssl
 * rand -hex 16` (32 characters) at least 2.76, `-hex 32` 3.4, a 20-character password of letters and
 * digits 3.1, base64 of 32 bytes 4.3. It is a floor for what those make; the rules before it catch the
 * phrases above it.
 */
export const MIN_BITS_PER_CHAR = 2.5;

/**
 * A part of this many characters found twice marks a phrase repeated ('acme-secret-acme-secret-2024').
 * A random value repeats one by chance about once in a million at 64 hex characters (16^-10 per pair of
 * places), far less in any larger alphabet.
 */
const REPEATED_PART = 10;

/** Whether some part of REPEATED_PART characters occurs twice in the value (case ignored). */
function repeatsAPart(value: string): boolean {
  const lower = value.toLowerCase();
  const seen = new Set<string>();
  for (let i = 0; i + REPEATED_PART <= lower.length; i++) {
    const part = lower.slice(i, i + REPEATED_PART);
    if (seen.has(part)) return true;
    seen.add(part);
  }
  return false;
}

/** Words that mark a value as a placeholder someone was meant to replace. */
const PLACEHOLDER = /change.?me|changeit|replace.?me|example|sample|placeholder|your.?secret|dummy|not.?secret|insecure/i;

/** The size of the alphabet a value draws from, by the character classes it uses. */
function alphabetSize(value: string): number {
  if (/^[0-9a-f]+$/.test(value) || /^[0-9A-F]+$/.test(value)) return 16;
  let size = 0;
  if (/[0-9]/.test(value)) size += 10;
  if (/[a-z]/.test(value)) size += 26;
  if (/[A-Z]/.test(value)) size += 26;
  if (/[^0-9a-zA-Z]/.test(value)) size += 33;
  return size;
}

/** Shannon entropy of the value's own character frequencies, in bits per character. */
export function observedBitsPerChar(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * A cautious estimate of a secret's entropy in bits: its length times the smaller of what its alphabet
 * allows and what its characters actually show. A random value scores close to its true entropy
 * (`openssl rand -hex 32`: ~245 of 256 bits); a phrase or a value of few characters scores low.
 */
export function estimatedEntropyBits(value: string): number {
  const length = [...value].length;
  if (length === 0) return 0;
  return length * Math.min(Math.log2(alphabetSize(value)), observedBitsPerChar(value));
}

/** Whether the value is a shorter unit repeated ('abcabcabc…'), or mostly (three steps in four) a run of consecutive characters. */
function isPatterned(value: string): boolean {
  const chars = [...value];
  for (let period = 1; period <= chars.length / 2; period++) {
    if (chars.every((ch, i) => ch === chars[i % period])) return true;
  }
  let sequential = 0;
  for (let i = 1; i < chars.length; i++) {
    const step = chars[i]!.codePointAt(0)! - chars[i - 1]!.codePointAt(0)!;
    if (step === 1 || step === -1 || step === 0) sequential++;
  }
  // Three steps in four: random hex takes a step of 0 or 1 about one time in six, and half of them (the
  // bar until issue 26) refused about 16 in a million keys of `openssl rand -hex 16`.
  return sequential >= ((chars.length - 1) * 3) / 4;
}

export const MAKE_A_SECRET = 'generate one with `openssl rand -hex 32`';

/**
 * Why `value` may not guard a production installation, or undefined when it may: a published sample or
 * a value with one in it, a placeholder, a pattern, a part repeated, too few distinct characters, too
 * little entropy per character (whatever the length) or too little estimated entropy in all.
 */
export function weakSecretReason(value: string, minBits: number): string | undefined {
  const trimmed = value.trim();
  if (KNOWN_SAMPLE_SECRETS.includes(trimmed.toLowerCase())) return 'is a published sample value';
  if (containsKnownSample(trimmed)) return 'contains a published sample value';
  if (PLACEHOLDER.test(trimmed)) return 'looks like a placeholder';
  if (isPatterned(trimmed)) return 'is a repeated or sequential pattern';
  if (repeatsAPart(trimmed)) return `repeats a part of itself (${REPEATED_PART} characters or more)`;
  if (new Set(trimmed).size < 8) return 'uses fewer than 8 distinct characters';
  const perChar = observedBitsPerChar(trimmed);
  if (perChar < MIN_BITS_PER_CHAR) return `has too little entropy per character (about ${perChar.toFixed(1)} bits; at least ${MIN_BITS_PER_CHAR} needed)`;
  const bits = estimatedEntropyBits(trimmed);
  if (bits < minBits) return `is too predictable (about ${Math.floor(bits)} bits of entropy; at least ${minBits} needed)`;
  return undefined;
}
