// @limelight/widgets/run: the rules of running a service, with no React and no DOM, shared by
// the runner widget and the platform server: which endpoints run, an endpoint's input schema
// and its validation, data-URI files, and the credit metering of a run. Stable.
export { endpointInputSchema } from './schema';
export type { JsonSchema } from './schema';
export { validateJobInput, describeFieldErrors } from './validate';
export type { InputValidation } from './validate';
export { runnableEndpoints, canRunService, runBlocker, type RunBlocker } from './endpoints';
export { parseDataUri, isFileUrl } from './files';
export { CREDITS_PER_USD, creditsForRun, formatCredits } from './metering';
export { estimateRun } from './estimate';
export type { RunEstimate } from './estimate';
