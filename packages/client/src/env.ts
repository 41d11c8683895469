// The client's settings from the environment (docs/sdk.md, "Credentials from the environment"):
// LIMELIGHT_API_KEY and LIMELIGHT_BASE_URL, the names the Python SDK and the `limelight` CLI read
// too. The older LIME_API_KEY (and its LIME_BASE_URL counterpart) still work, with a warning once
// per process; the new name wins when both are set.

/** The names read, each with the older one it replaces. */
const OLD_NAMES = { LIMELIGHT_API_KEY: 'LIME_API_KEY', LIMELIGHT_BASE_URL: 'LIME_BASE_URL' } as const;

export type EnvName = keyof typeof OLD_NAMES;

const warned = new Set<string>();

/**
 * A setting from the server's environment (process.env in Node, Deno, Bun and edge runtimes that
 * emulate it), or undefined: a browser has no process, and a bundler's stub has no such key. An
 * empty value counts as unset.
 */
export function envVar(name: EnvName): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  if (typeof window !== 'undefined' || !env) return undefined;
  const value = env[name];
  if (value) return value;
  const old = OLD_NAMES[name];
  const oldValue = env[old];
  if (!oldValue) return undefined;
  if (!warned.has(old)) {
    warned.add(old);
    console.warn(`@limelight/client: ${old} is deprecated, set ${name} instead (the older name still works for now)`);
  }
  return oldValue;
}
