import { randomUUID } from 'node:crypto';
import {
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
  type JWTVerifyOptions,
} from 'jose';
import type { SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import { hasUnretiredSigningKey, insertSigningKey, lockSigningKeys, selectUnretiredSigningKeys } from './queries';

// ES256 signing keys, kept in the database (private halves sealed with the secret box) so that
// several server processes on one PostgreSQL sign and verify with the same keys. The newest
// unretired key signs; every unretired key verifies and is published in the JWKS.

const ALG = 'ES256';
/** An unknown `kid` triggers a reload at most this often (another process may have rotated). */
const RELOAD_INTERVAL_MS = 5_000;

interface LoadedKey {
  kid: string;
  publicJwk: JWK;
  publicKey: CryptoKey;
  privateKey: CryptoKey;
}

export class SigningKeys {
  #keys = new Map<string, LoadedKey>();
  #current!: LoadedKey;
  #lastReload = 0;

  private constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  /** Loads the keys, creating the first one if there is none. */
  static async open(db: Db, box: SecretBox): Promise<SigningKeys> {
    const keys = new SigningKeys(db, box);
    await db.transaction().execute(async (trx) => {
      await lockSigningKeys(trx);
      if (!(await hasUnretiredSigningKey(trx))) await keys.#insertNewKey(trx);
    });
    await keys.#reload();
    return keys;
  }

  async #insertNewKey(db: Db): Promise<void> {
    const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig', key_ops: ['verify'] };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALG };
    await insertSigningKey(db, {
      kid,
      alg: ALG,
      public_jwk: JSON.stringify(publicJwk),
      private_jwk_enc: this.box.seal(JSON.stringify(privateJwk)),
    });
  }

  async #reload(): Promise<void> {
    this.#lastReload = Date.now();
    const rows = await selectUnretiredSigningKeys(this.db);
    const next = new Map<string, LoadedKey>();
    for (const row of rows) {
      const known = this.#keys.get(row.kid);
      if (known) {
        next.set(row.kid, known);
        continue;
      }
      const publicJwk = row.public_jwk as JWK;
      const privateJwk = JSON.parse(this.box.open(row.private_jwk_enc)) as JWK;
      next.set(row.kid, {
        kid: row.kid,
        publicJwk,
        publicKey: (await importJWK({ ...publicJwk, key_ops: undefined }, ALG)) as CryptoKey,
        privateKey: (await importJWK(privateJwk, ALG)) as CryptoKey,
      });
    }
    const newest = rows[0] && next.get(rows[0].kid);
    if (!newest) throw new Error('No signing key available');
    this.#keys = next;
    this.#current = newest;
  }

  /** Adds a new signing key; the old ones keep verifying until retired. */
  async rotate(): Promise<string> {
    await this.#insertNewKey(this.db);
    await this.#reload();
    return this.#current.kid;
  }

  sign(claims: JWTPayload, expiresAt: number, issuedAt: number): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: ALG, kid: this.#current.kid, typ: 'JWT' })
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(this.#current.privateKey);
  }

  /** Verifies signature, expiry, issuer and audience; throws jose's errors. */
  async verify(token: string, options: JWTVerifyOptions): Promise<JWTPayload> {
    const { payload } = await jwtVerify(
      token,
      async (header) => {
        let key = header.kid ? this.#keys.get(header.kid) : undefined;
        if (!key && header.kid && Date.now() - this.#lastReload > RELOAD_INTERVAL_MS) {
          await this.#reload();
          key = this.#keys.get(header.kid);
        }
        if (!key) throw new Error(`unknown signing key ${header.kid ?? '(no kid)'}`);
        return key.publicKey;
      },
      { ...options, algorithms: [ALG] },
    );
    return payload;
  }

  jwks(): { keys: JWK[] } {
    return { keys: [...this.#keys.values()].map((k) => k.publicJwk) };
  }
}
