// A container service's secrets (docs/publishing.md, "Secrets"): the rules for a name and a
// value that the server enforces, the site's form and the CLI check before sending, and that the
// Python CLI reads from limelight/_rules.py.

/** A secret's name: an environment variable's, capital letters, digits and _, not starting with a digit. */
export const SECRET_NAME_PATTERN = '^[A-Z_][A-Z0-9_]*$';
/** The longest name of a secret, in characters. */
export const MAX_SECRET_NAME_LENGTH = 64;
/** Bytes of one value (UTF-8): large enough for a PEM key, small enough for a container's environment. */
export const MAX_SECRET_VALUE_BYTES = 16 * 1024;
/** Secrets one service may hold. */
export const MAX_SECRETS = 50;
/** Names the platform sets itself (PORT, docs/publishing.md "The container contract") or the process needs. */
export const RESERVED_SECRET_NAMES = ['PORT', 'PATH', 'HOME', 'HOSTNAME'];
/** Names with this prefix are the platform's. */
export const RESERVED_SECRET_PREFIX = 'LIMELIGHT_';

const NAME = new RegExp(SECRET_NAME_PATTERN);

/** Why `name` cannot be a secret's name, in words for the publisher, or null. */
export function secretNameProblem(name: string): string | null {
  if (name.length === 0) return 'give the variable’s name, e.g. OPENAI_API_KEY';
  if (name.length > MAX_SECRET_NAME_LENGTH) return `at most ${MAX_SECRET_NAME_LENGTH} characters`;
  if (!NAME.test(name)) return 'capital letters, digits and _, not starting with a digit (like OPENAI_API_KEY)';
  if (RESERVED_SECRET_NAMES.includes(name) || name.startsWith(RESERVED_SECRET_PREFIX)) {
    return `${name} is set by the platform (PORT, PATH, HOME, HOSTNAME and LIMELIGHT_* are reserved)`;
  }
  return null;
}
