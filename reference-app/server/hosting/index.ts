// hosting/'s public entry for tests outside test/unit (docs/testing.md, "Tests and the server's
// entries"): the parts a container is hosted with (engine, instances, deployment, fleets, logs,
// limits, capacity, GPU devices, pull check, the runner's config, runsc snapshots) and the runtime
// registry's choices.
export { HostCapacity } from './capacity';
export { hasSubordinateIds, loadContainerRunnerConfig } from './config';
export { createContainerRuntime, LOG_LATE_MS } from './containerRuntime';
export { Deployment, type DeploymentSpec, type InstanceSlot } from './deployment';
export { DEPLOYMENT_LOG_ROWS, DeploymentLogWriter, LOG_TRIM_EVERY } from './deploymentLogs';
export { DockerFleet } from './dockerFleet';
export {
  ContainerEngine,
  DEPLOYMENT_LABEL,
  EngineError,
  MANAGED_LABEL,
  networkName,
  waitReady,
  type InstanceSpec,
  type RegistryAuth,
} from './engine';
export { waitingFleet, type ContainerSpec, type DeploymentReport, type FleetAdapter } from './fleet';
export { GpuAllocator } from './gpuAllocator';
export { InstanceFactory } from './instances';
export { LeasedFleet } from './leasedFleet';
export { limitsFor, LOG_MAX_MB } from './limits';
export { LogRing, type LogLine } from './logRing';
export { hostPlatform, PullCheck } from './pullCheck';
export { DEMO_REASON, IO_RUNTIMES, type RuntimeChooser } from './runtimeRegistry';
export { ROLLOUT_LOG_LINES } from './schemas';
export { RunscSnapshots, SnapshotError, snapshotUnavailableReason, type ImageConfig, type Snapshot } from './snapshots/runsc';
export { snapshotKey, SnapshotTier } from './snapshots/tier';
