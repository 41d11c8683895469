// Pure data (no runtime imports): the manifest script loads it in Node; each element imports only its own.
import type { WidgetDefinition } from '../types';
import { apiUrl, theme, strings } from './common';

export const serviceRunnerDefinition = {
  tag: 'lime-service-runner',
  className: 'LimeServiceRunnerElement',
  bundle: 'lime-service-runner',
  description:
    "Playground of one service (docs/jobs.md): a form generated from the endpoint's parameters, the estimated cost, Run, live progress and streamed text, Cancel, the output by type and the caller's recent runs. An anonymous Run opens the sign-in overlay and runs after sign-in.",
  attributes: [
    {
      name: 'service-id',
      property: 'serviceId',
      type: 'string',
      description: 'Id of the service to run (as in `/v1/model_management/model_descriptors`).',
    },
    {
      name: 'endpoint',
      property: 'endpoint',
      type: 'string',
      default: 'the first endpoint',
      description: 'Path of the endpoint selected at first (e.g. `/generate`), when the service has several.',
    },
    apiUrl,
    {
      name: 'auth-url',
      property: 'authUrl',
      type: 'string',
      default: 'api-url',
      description:
        'Supabase-compatible auth service URL (the client appends `/auth/v1`); the sign-in overlay and the session token come from it.',
    },
    {
      name: 'auth-key',
      property: 'authKey',
      type: 'string',
      default: "''",
      description: 'Public (anon) key of the auth service.',
    },
    {
      name: 'input',
      property: 'input',
      type: 'json',
      typeText: 'Record<string, unknown>',
      description: 'JSON object of input values the form starts with, e.g. `{"prompt":"a lime on a desk"}`; the rest take their defaults.',
    },
    {
      name: 'show-recent-runs',
      property: 'showRecentRuns',
      type: 'boolean',
      default: 'true',
      description: 'Lists the signed-in caller\'s recent runs of the service; `show-recent-runs="false"` hides them.',
    },
    theme,
    strings,
  ],
  events: [
    {
      name: 'job',
      detail: 'Job',
      description:
        'Every new envelope of the job on screen: created (QUEUED), progress and partial output (PROCESSING), and the final status (FINISHED, FAILED, TIMEOUT, CANCELLED).',
    },
  ],
  methods: [],
} as const satisfies WidgetDefinition;
