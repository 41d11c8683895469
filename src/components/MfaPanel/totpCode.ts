/** A TOTP code as authenticator apps show it: six digits (spaces already removed). */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code);
}
