// @limelight/widgets/headless/service-runner: EXPERIMENTAL (docs/api-surface.md). The service
// runner's pieces for a custom run view: the XState run machine and the hook that drives it
// (claim, SSE follow, cancel), the form model that turns an endpoint's JSON Schema into fields
// and back into a job input, and the code samples (curl, JavaScript, Python) the runner shows.
// They follow the runner's internals and may change in any minor release; the stable surface
// is `@limelight/widgets/service-runner` (the component and its props).
export { runnerMachine } from '../components/ServiceRunner/runnerMachine';
export type { RunnerEvent, RunnerContext } from '../components/ServiceRunner/runnerMachine';
export { useServiceRunner } from '../components/ServiceRunner/useServiceRunner';
export type { UseServiceRunnerOptions, ServiceRunnerState } from '../components/ServiceRunner/useServiceRunner';
export { fieldsFromSchema, initialDraft, buildInput } from '../components/ServiceRunner/formModel';
export type { FieldSpec } from '../components/ServiceRunner/formModel';
export { codeSamples, exampleInput, toPython, serviceOpenApiUrl } from '../components/ServiceRunner/codeSamples';
export type { CodeSamples } from '../components/ServiceRunner/codeSamples';
