import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Secrets at rest (registry tokens, TOTP secrets, private signing keys, refresh tokens) are
// sealed with AES-256-GCM. The key never goes into the database, so a dump alone reveals none
// of them: it comes from LIMELIGHT_SECRET_KEY or from DATA_DIR/secret.key (created on first
// start, mode 0600). Servers sharing one PostgreSQL must share the key.

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

const VERSION = 'v1';

function decodeKey(raw: string): Buffer {
  const trimmed = raw.trim();
  return /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
}

/** Bytes of a key as written (64 hex digits or base64); the configuration checks it is 32. */
export function secretKeyBytes(raw: string): number {
  return decodeKey(raw).length;
}

function parseKey(raw: string, source: string): Buffer {
  const key = decodeKey(raw);
  if (key.length !== 32) throw new SecretBoxError(`${source} must hold 32 bytes (64 hex digits or base64), got ${key.length} bytes`);
  return key;
}

/** The key from the environment, else the one kept in the data directory (created if missing). */
export function loadSecretKey(envKey: string | undefined, dataDir: string): Buffer {
  if (envKey) return parseKey(envKey, 'LIMELIGHT_SECRET_KEY');
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return parseKey(readFileSync(file, 'utf8'), file);
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    return key;
  } catch (error) {
    // Another server process sharing the directory wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return parseKey(readFileSync(file, 'utf8'), file);
    throw error;
  }
}

export function createSecretBox(key: Buffer): SecretBox {
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed) {
      const [version, ivText, bodyText] = sealed.split('.');
      if (version !== VERSION || !ivText || !bodyText) throw new SecretBoxError('Sealed value has an unknown format');
      const body = Buffer.from(bodyText, 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText, 'base64url'));
        decipher.setAuthTag(body.subarray(body.length - 16));
        return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
      } catch (error) {
        throw new SecretBoxError('Sealed value does not open with this key (was LIMELIGHT_SECRET_KEY changed?)', { cause: error });
      }
    },
  };
}
