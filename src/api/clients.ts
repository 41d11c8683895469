import type { ApiClientOptions } from './http';
import { createModelManagementClient } from './modelManagement';
import { createPaymentClient } from './payment';
import { createProfileClient } from './profile';
import { createSupportClient } from './support';

export type PlatformClientOptions = Omit<ApiClientOptions, 'prefix' | 'defaultAuth'>;

/** All four API groups on one host with one token source. */
export function createPlatformClients(options: PlatformClientOptions) {
  return {
    modelManagement: createModelManagementClient(options),
    profile: createProfileClient(options),
    payment: createPaymentClient(options),
    support: createSupportClient(options),
  };
}

export type PlatformClients = ReturnType<typeof createPlatformClients>;
