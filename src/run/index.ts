export { endpointInputSchema, parameterSchema } from './schema';
export type { JsonSchema } from './schema';
export { validateJobInput, describeFieldErrors } from './validate';
export { runnableEndpoints, canRunService, runBlocker, type RunBlocker } from './endpoints';
export type { InputValidation } from './validate';
export { MAX_DATA_URI_BYTES, parseDataUri, dataUriSize, isFileUrl } from './files';
export type { DataUriParts } from './files';
export {
  CREDITS_PER_USD,
  EUR_PER_CREDIT,
  EUR_PER_USD,
  PUBLISHER_SHARE,
  creditsForRun,
  publisherEarning,
  roundUpCredits,
  roundDownCredits,
} from './metering';
export { estimateRun, DEFAULT_RUN_SECONDS } from './estimate';
export type { RunEstimate } from './estimate';
