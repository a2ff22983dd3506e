import { hash, verify } from '@node-rs/argon2';

/** argon2id with the library's defaults (OWASP's minimum: 19 MiB, 2 passes, 1 lane). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** A real hash of a random string: unknown e-mails are checked against it so they take the same time. */
let dummy: Promise<string> | undefined;

export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  dummy ??= hash(`dummy-${Math.random()}`);
  const target = storedHash ?? (await dummy);
  try {
    const ok = await verify(target, password);
    return ok && Boolean(storedHash);
  } catch {
    return false;
  }
}
