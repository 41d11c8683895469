export { ServiceRunner } from './ServiceRunner';
export type { ServiceRunnerProps } from './ServiceRunner';
