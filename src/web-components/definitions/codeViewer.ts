// Pure data (its only runtime import, the code layer's constants, is pure data too): the manifest
// script loads it in Node; each element imports only its own.
import { CODE_LANGUAGES, CODE_THEMES } from '../../code/constants';
import type { WidgetDefinition } from '../types';
import { theme, strings } from './common';

export const codeViewerDefinition = {
  tag: 'lime-code-viewer',
  className: 'LimeCodeViewerElement',
  bundle: 'lime-code-viewer',
  description:
    'Syntax-highlighted code with a copy button (product-rules §4 "Code display"). The code comes from the `code` attribute or, without it, from the element\'s own text.',
  attributes: [
    {
      name: 'code',
      property: 'code',
      type: 'string',
      default: "the element's text content",
      description:
        "The code to show. Without it the element's text content is used (kept in sync), so code can be written between the tags.",
    },
    {
      name: 'language',
      property: 'language',
      type: 'string',
      default: 'json',
      values: CODE_LANGUAGES,
      description: 'Language of the code (product-rules §5). Anything else shows the raw code with "Failed to highlight code".',
    },
    {
      name: 'code-theme',
      property: 'codeTheme',
      type: 'string',
      default: "'light-plus' with theme=\"light\", else 'dark-plus'",
      values: CODE_THEMES,
      description: 'Colour theme of the highlighted code (product-rules §5).',
    },
    {
      name: 'variant',
      property: 'variant',
      type: 'string',
      values: ['default', 'sample'],
      typeText: "'default' | 'sample'",
      default: 'default',
      description:
        '`sample`: 14px text (12px on medium screens and down), max height 300px; `default`: 12px, max height 400px (product-rules §9).',
    },
    {
      name: 'copyable',
      property: 'copyable',
      type: 'boolean',
      default: 'true',
      description: 'Shows the copy button; `copyable="false"` hides it.',
    },
    {
      name: 'show-language',
      property: 'showLanguage',
      type: 'boolean',
      default: 'true',
      description: 'Shows the language name in the toolbar; `show-language="false"` hides it.',
    },
    {
      name: 'label',
      property: 'label',
      type: 'string',
      default: 'Code sample ({language})',
      description: 'Accessible name of the scrollable code region.',
    },
    theme,
    strings,
  ],
  events: [
    { name: 'copied', detail: 'string', description: 'The code was copied to the clipboard; `detail` is the code.' },
    {
      name: 'highlight-error',
      detail: '{ code: string; message: string }',
      description:
        'Highlighting failed, was refused (unknown language) or timed out; the raw code is shown. `detail.code` is the reason code.',
    },
  ],
  methods: [],
  cssProperties: [
    {
      name: '--lime-code-max-height',
      default: '400px (300px for variant="sample")',
      description: 'Maximum height of the code area before it scrolls (product-rules §9).',
    },
    {
      name: '--lime-code-font-size',
      default: '12px (14px for variant="sample", 12px on medium screens and down)',
      description: 'Font size of the code (product-rules §9).',
    },
  ],
} as const satisfies WidgetDefinition;
