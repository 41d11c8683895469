import { serviceInputSchema } from './generated/serviceInput';

// Publishing rules the editor checks before saving, read from the server's ServiceInput schema
// (src/api/generated/serviceInput.ts, generated from /v1/openapi.json) so the browser and the
// server cannot disagree: a change to the server's zod schema reaches the editor through
// `npm run contract`.

const { display_name, endpoints, runtime } = serviceInputSchema.properties;
const container = runtime.oneOf[1].properties;

/**
 * A container runtime's fields the owner may leave out (docs/publishing.md, "The container
 * contract"): the platform's rule (@limelight/rules), which the server fills in too, so the
 * editor's placeholders and the stored values agree.
 */
export { CONTAINER_RUNTIME_DEFAULTS } from '@limelight/rules';

/** What the server's `ServiceInput` schema allows, for checking a draft before it is sent. */
export const SERVICE_INPUT_RULES = {
  /** Longest service name, in characters. */
  displayNameMaxLength: display_name.maxLength,
  /** An endpoint path: starts with `/`, then URL-safe characters only. */
  endpointPath: new RegExp(endpoints.items.properties.path.pattern),
  /** Longest endpoint path, in characters. */
  endpointPathMaxLength: endpoints.items.properties.path.maxLength,
  /** The container contract (docs/publishing.md): the port the image serves HTTP on. */
  containerPort: { min: container.port.minimum, max: container.port.maximum },
  /** The path that gates traffic: starts with `/`. */
  healthPath: new RegExp(container.health_path.pattern),
  healthPathMaxLength: container.health_path.maxLength,
  /** Jobs one instance takes at once. */
  concurrency: { min: container.concurrency.minimum, max: container.concurrency.maximum },
} as const;
