// One deployment report and one status list for all of container hosting (issue 36, item 2):
// the runner's Deployment, the fleets and the wire speak the same DeploymentReport and
// DEPLOYMENT_STATUSES (hosting/fleet.ts); the container runtime is named as the registry
// declares it, since jobs and the claim scope match on that name.
import { describe, expect, it } from 'vitest';
import { HostingInformationSchema } from '../../../reference-app/server/hosting/schemas';
import { detailOf } from '../../../reference-app/server/hosting/deployment';
import { DEPLOYMENT_STATUSES, WAITING_DETAIL, waitingFleet } from '../../../reference-app/server/hosting/fleet';
import { LogRing } from '../../../reference-app/server/hosting/logRing';
import type { Deployment } from '../../../reference-app/server/hosting/deployment';
import { createContainerRuntime } from '../../../reference-app/server/hosting/containerRuntime';
import { CONTAINER_RUNTIME } from '../../../reference-app/server/hosting/runtimeRegistry';

describe('the deployment report', () => {
  it("says the statuses the wire says, in the wire's order", () => {
    expect(HostingInformationSchema.shape.status.options).toEqual([...DEPLOYMENT_STATUSES]);
  });

  it('gives health checks and refusals one sentence made from what the runner said', () => {
    expect(detailOf({ status: 'running', message: 'Healthy', instances: 1 })).toBe('1 instance running');
    expect(detailOf({ status: 'running', message: 'Healthy', instances: 3 })).toBe('3 instances running');
    expect(detailOf({ status: 'scaled_to_zero', message: 'idle for 300 s', instances: 0 })).toBe(
      'Scaled to zero (idle for 300 s); the next run starts an instance',
    );
    expect(detailOf({ status: 'failed', message: 'pull: unauthorized', instances: 0 })).toBe('pull: unauthorized');
  });

  it('is the same shape from the fleet without a runner', async () => {
    const expected = { status: 'waiting_for_runner', message: WAITING_DETAIL, detail: WAITING_DETAIL, instances: 0 };
    expect(await waitingFleet.status('svc')).toEqual(expected);
    const spec = { serviceId: 'svc', image: 'x:1', gpu: 'g', minInstances: 0, maxInstances: 1, idleTimeoutS: 60 };
    expect(await waitingFleet.deploy(spec)).toEqual(expected);
  });
});

describe('the container runtime', () => {
  it('is named as the runtime registry declares it (CONTAINER_RUNTIME), which the claim scope matches', () => {
    const deployment = { id: 'svc', logs: new LogRing() } as unknown as Deployment;
    expect(createContainerRuntime(deployment).name).toBe(CONTAINER_RUNTIME.name);
  });
});
