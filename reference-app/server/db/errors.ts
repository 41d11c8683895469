/** PostgreSQL's unique_violation, as raised by both pg and PGlite. */
export function isUniqueViolation(error: unknown): boolean {
  return !!error && typeof error === 'object' && (error as { code?: unknown }).code === '23505';
}
