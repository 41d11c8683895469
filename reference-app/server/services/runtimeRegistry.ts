import type { SecretBox } from '../crypto/secretBox';
import type { RuntimeRegistry } from '../jobs/runtimes';
import { createHttpRuntime } from '../runtimes/http/httpRuntime';
import type { UrlPolicy } from '../runtimes/http/urlPolicy';
import { localDemoRuntime } from '../runtimes/local';

// Which runtime runs a service's jobs: a service published with its own URL runs there (the
// HTTP runtime, with its secret headers opened from the secret box); the seeded services run on
// the local demo runtimes. A container deployment has no runner here, so nothing runs it.

export function platformRuntimes(box: SecretBox, policy: UrlPolicy): RuntimeRegistry {
  return (service) => {
    if (service.runtime_type === 'http' && service.base_url) {
      const headers = service.headers_sealed ? (JSON.parse(box.open(service.headers_sealed)) as Record<string, string>) : undefined;
      return createHttpRuntime({ base_url: service.base_url, headers }, { policy });
    }
    if (service.runtime_type === 'container') return undefined;
    return localDemoRuntime;
  };
}
