// Pure data (no runtime imports): the account panels' elements. Each reads the session of the
// page's auth client (the one `<lime-auth-dialog>` signs into, for the same auth-url and
// auth-key); signed out, each shows a sign-in button that opens the sign-in overlay.
import type { AttributeDefinition, WidgetDefinition } from '../types';
import { apiUrl, authKey, authUrl, headingLevel, strings, theme } from './common';

const panelAttributes = [apiUrl, authUrl, authKey, headingLevel, theme, strings];

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** The shared attributes and one of the panel's own, whose property is its name in camelCase. */
function panelAttributesAnd<const N extends string, const A extends Omit<AttributeDefinition, 'name' | 'property'>>(name: N, own: A) {
  const property = name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()) as CamelCase<N>;
  return [...panelAttributes, { name, property, ...own }] as const;
}

export const apiKeysDefinition = {
  tag: 'lime-api-keys',
  className: 'LimeApiKeysElement',
  bundle: 'lime-api-keys',
  description:
    "The signed-in user's API keys: create one with a lifetime (183 days by default; the secret is shown once, with a copy button), list them with their expiry, delete one after a confirmation.",
  attributes: panelAttributes,
  events: [
    {
      name: 'key-created',
      detail: '{ id: string; display_value: string; created_at: string; expiration_date: string }',
      description: 'A key was created. The secret is not in the event: only the user sees it, once.',
    },
    { name: 'key-deleted', detail: '{ id: string }', description: 'A key was deleted.' },
  ],
  methods: [],
} as const satisfies WidgetDefinition;

export const profileFormDefinition = {
  tag: 'lime-profile-form',
  className: 'LimeProfileFormElement',
  bundle: 'lime-profile-form',
  description:
    "The signed-in user's details (name, address, mobile, date of birth); a new user is first asked to accept the terms of service.",
  attributes: panelAttributesAnd('terms-url', {
    type: 'string',
    default: "'/terms_of_service'",
    description: 'Where the terms of service are, linked from the agreement a new user is asked for.',
  }),
  events: [
    {
      name: 'profile-saved',
      detail: 'ProfileResult',
      description: 'The profile was saved, or the terms accepted; `detail` is the stored profile.',
    },
  ],
  methods: [],
} as const satisfies WidgetDefinition;

export const changePasswordDefinition = {
  tag: 'lime-change-password',
  className: 'LimeChangePasswordElement',
  bundle: 'lime-change-password',
  description:
    "Changes the signed-in user's password: the current password is checked first ('Current password is incorrect'), then the new one is set ('Password changed successfully').",
  attributes: panelAttributes,
  events: [{ name: 'password-changed', detail: 'null', description: 'The password was changed.' }],
  methods: [],
} as const satisfies WidgetDefinition;

export const mfaDefinition = {
  tag: 'lime-mfa',
  className: 'LimeMfaElement',
  bundle: 'lime-mfa',
  description:
    'Two-factor authentication with an authenticator app (TOTP): set one up from a QR code or its secret and confirm it with a code; list and remove factors.',
  attributes: panelAttributes,
  events: [
    {
      name: 'factor-enrolled',
      detail: '{ id: string }',
      description: 'A new factor was confirmed with its first code (the session is now aal2).',
    },
    { name: 'factor-removed', detail: '{ id: string }', description: 'A factor was removed.' },
  ],
  methods: [],
} as const satisfies WidgetDefinition;

export const creditsDefinition = {
  tag: 'lime-credits',
  className: 'LimeCreditsElement',
  bundle: 'lime-credits',
  description: "The signed-in user's credit balance and a form to buy credits through the payment provider's checkout.",
  attributes: panelAttributesAnd('show-buy', {
    type: 'boolean',
    default: 'true',
    description: 'Shows the form to buy credits; `show-buy="false"` shows the balance only.',
  }),
  events: [
    {
      name: 'checkout',
      detail: '{ url: string; quantity: number }',
      cancelable: true,
      description: 'About to go to the checkout page at `url`. `preventDefault()` stays on the page (open it your own way).',
    },
  ],
  methods: [],
} as const satisfies WidgetDefinition;

export const subscriptionDefinition = {
  tag: 'lime-subscription',
  className: 'LimeSubscriptionElement',
  bundle: 'lime-subscription',
  description: "The signed-in user's subscription: plan and status; subscribe, cancel at period end, cancel now, reactivate.",
  attributes: panelAttributesAnd('return-url', {
    type: 'string',
    default: 'the current page',
    description: 'Where the checkout of a new subscription returns to.',
  }),
  events: [{ name: 'subscription-change', detail: 'Subscription', description: 'The subscription changed; `detail` is its new state.' }],
  methods: [],
} as const satisfies WidgetDefinition;

export const transactionsDefinition = {
  tag: 'lime-transactions',
  className: 'LimeTransactionsElement',
  bundle: 'lime-transactions',
  description: "The signed-in user's credit transactions, sortable by any column, 10, 25, 50, 100 or all rows per page.",
  attributes: panelAttributesAnd('page-size', {
    type: 'string',
    values: ['10', '25', '50', '100', 'all'],
    typeText: "'10' | '25' | '50' | '100' | 'all'",
    default: '10',
    description: 'Rows per page at first.',
  }),
  events: [],
  methods: [],
} as const satisfies WidgetDefinition;

export const usageChartDefinition = {
  tag: 'lime-usage-chart',
  className: 'LimeUsageChartElement',
  bundle: 'lime-usage-chart',
  description:
    "The signed-in user's usage by month as charts (API calls, credits spent, or the balance over time), each with a data table and keyboard-reachable tooltips.",
  attributes: panelAttributesAnd('series', {
    type: 'string',
    typeText: "space-separated 'calls' | 'credits' | 'balance'",
    default: "'calls credits'",
    description: 'The charts to show, in order.',
  }),
  events: [],
  methods: [],
} as const satisfies WidgetDefinition;

export const registryCredentialsDefinition = {
  tag: 'lime-registry-credentials',
  className: 'LimeRegistryCredentialsElement',
  bundle: 'lime-registry-credentials',
  description: 'Docker Hub access tokens for hosting private images: add one (confirmed for 3 s), list them masked, delete one.',
  attributes: panelAttributes,
  events: [
    { name: 'credential-added', detail: 'RegistryCredential', description: 'A token was stored; `detail` shows it masked.' },
    { name: 'credential-deleted', detail: '{ id: string }', description: 'A token was deleted.' },
  ],
  methods: [],
} as const satisfies WidgetDefinition;

export const supportFormDefinition = {
  tag: 'lime-support-form',
  className: 'LimeSupportFormElement',
  bundle: 'lime-support-form',
  description: 'A support request from the signed-in user: topic, subject, message and attachments (2 MB each).',
  attributes: panelAttributes,
  events: [{ name: 'support-sent', detail: '{ id: string }', description: 'The request was sent; `id` is its reference.' }],
  methods: [],
} as const satisfies WidgetDefinition;

export const accountPanelDefinitions = [
  apiKeysDefinition,
  profileFormDefinition,
  changePasswordDefinition,
  mfaDefinition,
  creditsDefinition,
  subscriptionDefinition,
  transactionsDefinition,
  usageChartDefinition,
  registryCredentialsDefinition,
  supportFormDefinition,
] as const;
