import type { PlatformRegistry } from '../registry/platformRegistry';
import type { ContainerSpec } from './fleet';

// The runner pulls images of the platform's registry without a stored credential: each deploy of
// such an image gets a fresh pull ticket for that one repository (registry/tokens.ts), and only
// when the repository is in the service owner's namespace. A credential the owner chose (a
// bring-your-own registry) is used as before.

export function withPlatformRegistryPulls<F extends { deploy(spec: ContainerSpec): Promise<unknown> }>(
  fleet: F,
  registry: PlatformRegistry,
  ownerOf: (serviceId: string) => Promise<string | null>,
): F {
  const wrapped = Object.create(fleet) as F;
  wrapped.deploy = (async (spec: ContainerSpec) => {
    if (!spec.registryAuth) {
      const registryAuth = await registry.pullAuthFor(spec.image, await ownerOf(spec.serviceId));
      if (registryAuth) spec = { ...spec, registryAuth };
    }
    return fleet.deploy(spec);
  }) as F['deploy'];
  return wrapped;
}
