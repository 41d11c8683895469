import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane): ~40 ms a hash on one core.
// The library's default algorithm is argon2id.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password. Without a stored hash it still spends one verification on a dummy, so an
 * unknown email answers as slowly as a wrong password (no account enumeration by timing).
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** GoTrue's weak-password reasons we check: `length` only (product-rules §5: at least 6 characters). */
export function weakPasswordReasons(password: string, minLength: number): string[] {
  return [...password].length < minLength ? ['length'] : [];
}
