import { serviceInputSchema } from './generated/serviceInput';

// Publishing rules the editor checks before saving, read from the server's ServiceInput schema
// (src/api/generated/serviceInput.ts, generated from /v1/openapi.json) so the browser and the
// server cannot disagree: a change to the server's zod schema reaches the editor through
// `npm run contract`.

const { display_name, endpoints } = serviceInputSchema.properties;

/** What the server's `ServiceInput` schema allows, for checking a draft before it is sent. */
export const SERVICE_INPUT_RULES = {
  /** Longest service name, in characters. */
  displayNameMaxLength: display_name.maxLength,
  /** An endpoint path: starts with `/`, then URL-safe characters only. */
  endpointPath: new RegExp(endpoints.items.properties.path.pattern),
  /** Longest endpoint path, in characters. */
  endpointPathMaxLength: endpoints.items.properties.path.maxLength,
} as const;
