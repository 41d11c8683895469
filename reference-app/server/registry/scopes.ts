import { registryHostOf, registryOf } from './allowedRegistries';

// Scopes of the registry token protocol (Distribution's docs/spec/auth/scope.md):
// `repository:<name>:<action>[,<action>]`. A caller is granted push and pull on the repositories
// of their own namespace (`<handle>/<name>`), nothing anywhere else; the runner's pull ticket
// grants pull on the one repository it names.

export interface Access {
  type: string;
  name: string;
  actions: string[];
}

/** The scope parameters of a token request; malformed ones are dropped (granted nothing). */
export function parseScopes(scopes: string[]): Access[] {
  const out: Access[] = [];
  for (const scope of scopes) {
    for (const one of scope.split(' ')) {
      const match = /^(repository):([a-z0-9]+(?:[._/-][a-z0-9]+)*(?::[0-9]+)?(?:\/[a-z0-9._-]+)*):([a-z,*]+)$/.exec(one);
      if (!match) continue;
      out.push({ type: match[1]!, name: match[2]!, actions: match[3]!.split(',').filter(Boolean) });
    }
  }
  return out;
}

/** The namespace of a repository name (`ada-3f2a9c1e0b4d/ocr` → `ada-3f2a9c1e0b4d`). */
export const namespaceOf = (repository: string) => repository.split('/')[0] ?? '';

/**
 * What a caller whose namespace is `handle` gets of each asked access: push and pull inside their
 * namespace, nothing outside it (an empty list, so the registry answers 401/denied).
 */
export function grant(asked: Access[], handle: string, allowed: readonly string[] = ['push', 'pull']): Access[] {
  return asked
    .filter((a) => a.type === 'repository' && namespaceOf(a.name) === handle && a.name.includes('/'))
    .map((a) => ({ ...a, actions: a.actions.filter((action) => allowed.includes(action)) }))
    .filter((a) => a.actions.length > 0);
}

/**
 * Why a service of the account whose namespace is `handle` may not name `image`, when the image
 * is on the platform's registry (`host`) outside that namespace; undefined otherwise. Nothing
 * would pull it for them: the runner's pull ticket is for the owner's own namespace, and a pull
 * never borrows a login stored on the engine's host (issue 47; docs/security.md).
 */
export function foreignNamespaceProblem(image: string, host: string, handle: string | null): string | undefined {
  if (registryOf(image) !== registryHostOf(host)) return undefined;
  const repository = image
    .slice(image.indexOf('/') + 1)
    .replace(/@.*$/, '')
    .replace(/:[^/]*$/, '');
  const namespace = repository.includes('/') ? namespaceOf(repository) : null;
  if (namespace !== null && namespace === handle) return undefined;
  const yours = handle ? `your images are under ${host}/${handle}/<name>:<tag>` : 'your account has no namespace there';
  return namespace
    ? `${host}/${namespace} is another account's namespace of the platform's registry; ${yours}`
    : `${image} names no namespace of the platform's registry; ${yours}`;
}

/** Splits `host[:port]/ns/name[:tag|@digest]` into the host and the repository; null for another host. */
export function repositoryIn(image: string, host: string): string | null {
  if (!image.startsWith(`${host}/`)) return null;
  const rest = image.slice(host.length + 1);
  return rest.replace(/@.*$/, '').replace(/:[^/]*$/, '');
}
