import { beforeAll, describe, expect, it } from 'vitest';
import { createPlatformClients, SERVICE_INPUT_RULES, type ServicesClient } from '../../../src/api';
import {
  emptyDraft,
  endpointDraft,
  errorMap,
  toServiceInput,
  type ServiceDraft,
} from '../../../reference-app/src/pages/publish/serviceDraft';
import { confirmedUser, globalServer, signedIn } from '../helpers';

// The publishing editor checks a draft with the rules the server applies (SERVICE_INPUT_RULES,
// read from the server's ServiceInput schema by `npm run contract`): what the editor refuses,
// the real server refuses for the same field, and what the editor lets through at the limit the
// server does not refuse for that reason.

const target = globalServer();
let services: ServicesClient;
beforeAll(async () => {
  const { session } = await signedIn(target, await confirmedUser(target, 'publish-rules'));
  services = createPlatformClients({ baseURL: target.url, accessToken: session.access_token }).services;
});

const draftWith = (displayName: string, path = '/generate'): ServiceDraft => ({
  ...emptyDraft(),
  displayName,
  endpoints: [endpointDraft({ method: 'POST', path, parameters: [] })],
});

/** The field errors the server answers for the draft's body (none when it is accepted or fails for another reason). */
async function serverErrors(draft: ServiceDraft): Promise<Record<string, string>> {
  const { input } = toServiceInput(draft);
  const result = await services.create({ ...input, runtime: null, visibility: 'private' });
  if (result.ok) await services.remove(result.data.id);
  return result.ok ? {} : errorMap(result.fieldErrors ?? []);
}

describe('SERVICE_INPUT_RULES: the editor and the server agree', () => {
  it("takes the name limit from the server's schema", () => {
    expect(SERVICE_INPUT_RULES.displayNameMaxLength).toBe(80);
  });

  it('a name one character over the limit: both refuse display_name; at the limit neither does', async () => {
    const over = draftWith('x'.repeat(SERVICE_INPUT_RULES.displayNameMaxLength + 1));
    expect(errorMap(toServiceInput(over).errors)).toHaveProperty('display_name');
    expect(await serverErrors(over)).toHaveProperty('display_name');

    const atLimit = draftWith('x'.repeat(SERVICE_INPUT_RULES.displayNameMaxLength));
    expect(errorMap(toServiceInput(atLimit).errors)).not.toHaveProperty('display_name');
    expect(await serverErrors(atLimit)).not.toHaveProperty('display_name');
  });

  it('an endpoint path with a space: both refuse endpoints.0.path', async () => {
    const draft = draftWith('Paths', '/gen erate');
    expect(errorMap(toServiceInput(draft).errors)).toHaveProperty(['endpoints.0.path']);
    expect(await serverErrors(draft)).toHaveProperty(['endpoints.0.path']);
  });
});
