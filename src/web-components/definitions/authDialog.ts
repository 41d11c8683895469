// Pure data (no runtime imports): the manifest script loads it in Node; each element imports only its own.
import type { WidgetDefinition } from '../types';
import { apiUrl, authKey, authUrl, theme, strings } from './common';

export const authDialogDefinition = {
  tag: 'lime-auth-dialog',
  className: 'LimeAuthDialogElement',
  bundle: 'lime-auth-dialog',
  description:
    'Sign-in / sign-up overlay (product-rules §4 "Sign-in page states", overlay mode): opens with the `open` attribute or `show()`, emits `authenticated` after a sign-in and closes.',
  attributes: [
    authUrl,
    authKey,
    apiUrl,
    {
      name: 'open',
      property: 'open',
      type: 'boolean',
      default: 'false',
      description: 'Present while the dialog is open. Set it (or call `show()`) to open; the element removes it when the dialog closes.',
    },
    {
      name: 'page-state',
      property: 'pageState',
      type: 'number',
      typeText: '0 | 1 | 2 | 3 | 4 | 5 | 6',
      default: '1',
      description:
        'State the dialog opens in (product-rules §4): 0 sign up, 1 sign in, 3 password recovery. Read each time the dialog opens.',
    },
    theme,
    strings,
  ],
  events: [
    {
      name: 'authenticated',
      detail: 'Session',
      description:
        'The user signed in; `detail` is the session (`access_token`, `refresh_token`, `expires_at`, `user`, ...). The dialog closes afterwards.',
    },
    {
      name: 'close',
      detail: 'null',
      description: 'The dialog closed (close button, Escape, or after `authenticated`); the `open` attribute is gone.',
    },
  ],
  methods: [
    { name: 'show', description: 'Opens the dialog (sets the `open` attribute).' },
    { name: 'close', description: 'Closes the dialog (removes the `open` attribute) and emits `close`.' },
  ],
} as const satisfies WidgetDefinition;
