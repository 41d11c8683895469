// Attributes every element (or several) shares. Pure data, like the definitions themselves.
import type { AttributeDefinition } from '../types';

export const theme: AttributeDefinition = {
  name: 'theme',
  property: 'theme',
  type: 'string',
  values: ['dark', 'light', 'inherit'],
  typeText: "'dark' | 'light' | 'inherit'",
  default: 'dark',
  description:
    'Colour theme. `inherit` sets no token, so every `--lime-*` custom property comes from the page. Any single token set on the element itself wins over the theme.',
};

export const strings: AttributeDefinition = {
  name: 'strings',
  property: 'strings',
  type: 'json',
  typeText: 'StringOverrides',
  description:
    'JSON object overriding any subset of the strings table (the spec\'s English texts are the defaults), e.g. `{"search":{"placeholder":"Modelle suchen"}}`.',
};

export const apiUrl: AttributeDefinition = {
  name: 'api-url',
  property: 'apiUrl',
  type: 'string',
  default: 'the page origin',
  description:
    'Base URL of the platform API (the client appends `/v1/...`). Cross-origin: the API must allow the page origin (CORS) and the page CSP must list it in `connect-src`.',
};
