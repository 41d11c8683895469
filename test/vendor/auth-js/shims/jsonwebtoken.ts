import { createHmac } from 'node:crypto';

// The one call of `jsonwebtoken` the vendored suite makes: sign(payload, secret), HS256. It mints
// mock tokens (never accepted by the server), so this shim replaces the devDependency.

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

export function sign(payload: Record<string, unknown>, secret: string): string {
  const head = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify(payload))}`;
  return `${head}.${base64url(createHmac('sha256', secret).update(head).digest())}`;
}

export default { sign };
