import type { ApiClientOptions } from './http';
import { createJobsClient } from './jobs';
import { createServicesClient } from './services';
import { createModelManagementClient } from './modelManagement';
import { createPaymentClient } from './payment';
import { createProfileClient } from './profile';
import { createSupportClient } from './support';

export type PlatformClientOptions = Omit<ApiClientOptions, 'prefix' | 'defaultAuth'>;

/** All API groups on one host with one token source. */
export function createPlatformClients(options: PlatformClientOptions) {
  return {
    modelManagement: createModelManagementClient(options),
    profile: createProfileClient(options),
    payment: createPaymentClient(options),
    support: createSupportClient(options),
    jobs: createJobsClient(options),
    services: createServicesClient(options),
  };
}

export type PlatformClients = ReturnType<typeof createPlatformClients>;
