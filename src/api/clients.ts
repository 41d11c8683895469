import type { ClientOptions } from './http';
import { createJobsClient } from './jobs';
import { createServicesClient } from './services';
import { createModelManagementClient } from './modelManagement';
import { createPaymentClient } from './payment';
import { createProfileClient } from './profile';
import { createSupportClient } from './support';
import { createTokenSource } from './token';

/** Options of `createPlatformClients`: the host and the token source every group shares. */
export type PlatformClientOptions = ClientOptions;

/**
 * The client factory: every API group on one host with one token source, resolved once. Each
 * group's own factory (`createJobsClient`, ...) takes the same options, for code that needs one
 * group only and should not load the others.
 */
export function createPlatformClients(options: PlatformClientOptions) {
  const shared: ClientOptions = { baseURL: options.baseURL, fetch: options.fetch, getAccessToken: createTokenSource(options) };
  return {
    modelManagement: createModelManagementClient(shared),
    profile: createProfileClient(shared),
    payment: createPaymentClient(shared),
    support: createSupportClient(shared),
    jobs: createJobsClient(shared),
    services: createServicesClient(shared),
  };
}

/** Every API group's client on one host, as `createPlatformClients` returns them. */
export type PlatformClients = ReturnType<typeof createPlatformClients>;
