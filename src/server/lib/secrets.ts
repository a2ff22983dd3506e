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
