import type { SocialProvider } from '../../auth/socialProviders';

// The providers' marks as data: one path set each, coordinates rounded to one decimal. A chunk
// of its own, loaded while the dialog asks the auth server which providers are on (the buttons
// wait for that answer anyway), so the script-tag bundle does not carry them up front.

/** Fill and path of each shape of a mark (viewBox 0 0 24 24). */
export type ProviderMark = ReadonlyArray<readonly [fill: string, d: string]>;

export const PROVIDER_MARKS: Record<SocialProvider, ProviderMark> = {
  google: [
    ['#ea4335', 'M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A11.5 11.5 0 0 0 1.3 6.6l4 3.1A6.9 6.9 0 0 1 12 4.8z'],
    ['#4285f4', 'M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.5h6.5a5.6 5.6 0 0 1-2.4 3.6l3.9 3c2.3-2.1 3.5-5.2 3.5-8.8z'],
    ['#fbbc05', 'M5.3 14.3a7 7 0 0 1 0-4.6l-4-3.1a12 12 0 0 0 0 10.8z'],
    ['#34a853', 'M12 24c3.2 0 6-1.1 8-2.9l-3.9-3a7.2 7.2 0 0 1-10.8-3.8l-4 3.1A12 12 0 0 0 12 24z'],
  ],
  azure: [
    ['#f25022', 'M1 1h10v10H1z'],
    ['#7fba00', 'M13 1h10v10H13z'],
    ['#00a4ef', 'M1 13h10v10H1z'],
    ['#ffb900', 'M13 13h10v10H13z'],
  ],
  github: [
    [
      'currentColor',
      'M12 .3a12 12 0 0 0-3.8 23.4c.6.1.8-.3.8-.6v-2c-3.3.7-4-1.6-4-1.6-.6-1.4-1.4-1.8-1.4-1.8-1-.7.1-.7.1-.7 1.2.1 1.8 1.2 1.8 1.2 1 1.8 2.8 1.3 3.5 1 .1-.8.4-1.3.7-1.6-2.7-.3-5.5-1.3-5.5-6 0-1.2.5-2.3 1.3-3.1-.2-.4-.6-1.6.1-3.2 0 0 1-.3 3.3 1.2a11.5 11.5 0 0 1 6 0C17.3 4.6 18.3 5 18.3 5c.7 1.6.2 2.8.1 3.2.8.8 1.3 1.9 1.3 3.1 0 4.6-2.8 5.6-5.5 5.9.5.4.9 1.1.9 2.2v3.3c0 .3.1.7.8.6A12 12 0 0 0 12 .3z',
    ],
  ],
  facebook: [
    [
      '#1877f2',
      'M24 12a12 12 0 1 0-13.9 11.9v-8.4h-3V12h3V9.4c0-3 1.8-4.7 4.5-4.7 1.3 0 2.7.2 2.7.2v3h-1.5c-1.5 0-2 .9-2 1.9V12h3.4l-.5 3.5h-2.9v8.4A12 12 0 0 0 24 12z',
    ],
  ],
};
