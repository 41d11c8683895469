/**
 * Theme values as plain data. The `.css.ts` files turn them into CSS; the contrast test reads
 * them directly, so the palette that ships is the palette that is checked.
 */
export type ThemeValues = {
  color: {
    /** Page background (product-rules §1: very dark purple in the dark theme). */
    background: string;
    /** Cards, popups, inputs. */
    surface: string;
    /** Hovered or highlighted rows on a surface. */
    surfaceRaised: string;
    border: string;
    text: string;
    textMuted: string;
    /** Lime accent (product-rules §1). */
    primary: string;
    primaryHover: string;
    /** Text drawn on the primary accent. */
    onPrimary: string;
    focusRing: string;
    dangerSurface: string;
    onDanger: string;
    warningSurface: string;
    onWarning: string;
    successSurface: string;
    onSuccess: string;
    /** Backdrop behind dialogs and blocking overlays. */
    backdrop: string;
    skeleton: string;
    /** Highlight behind matched search text. */
    mark: string;
    onMark: string;
  };
  font: { body: string; mono: string };
  fontSize: { xs: string; sm: string; md: string; lg: string; xl: string; xxl: string };
  space: { xxs: string; xs: string; sm: string; md: string; lg: string; xl: string; xxl: string };
  radius: { sm: string; md: string; lg: string; pill: string };
  shadow: { popup: string; dialog: string };
  zIndex: { header: string; popup: string; overlay: string; dialog: string; toast: string };
};

const shared = {
  font: {
    body: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    mono: '"JetBrains Mono", ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  },
  fontSize: { xs: '0.75rem', sm: '0.875rem', md: '1rem', lg: '1.25rem', xl: '1.75rem', xxl: '2.5rem' },
  space: { xxs: '2px', xs: '4px', sm: '8px', md: '16px', lg: '24px', xl: '40px', xxl: '64px' },
  radius: { sm: '4px', md: '8px', lg: '16px', pill: '999px' },
  zIndex: { header: '100', popup: '1000', overlay: '1100', dialog: '1200', toast: '1300' },
} as const;

/** The dark theme's values of every theme variable (colours, shadows; the shared scales). */
export const darkValues: ThemeValues = {
  ...shared,
  color: {
    background: '#0f0a1a',
    surface: '#1a1229',
    surfaceRaised: '#2a1f3d',
    border: '#7a6b96',
    text: '#f4f1fa',
    textMuted: '#b8aecb',
    primary: '#c6f432',
    primaryHover: '#d6ff5c',
    onPrimary: '#141a00',
    focusRing: '#c6f432',
    dangerSurface: '#4a1020',
    onDanger: '#ffd9df',
    warningSurface: '#4a3500',
    onWarning: '#ffe9b0',
    successSurface: '#123d1c',
    onSuccess: '#c9f5d3',
    backdrop: 'rgba(8, 4, 16, 0.78)',
    skeleton: '#2f2444',
    mark: '#c6f432',
    onMark: '#141a00',
  },
  shadow: {
    popup: '0 12px 32px rgba(0, 0, 0, 0.55)',
    dialog: '0 24px 64px rgba(0, 0, 0, 0.7)',
  },
};

/** The light theme's values of every theme variable (colours, shadows; the shared scales). */
export const lightValues: ThemeValues = {
  ...shared,
  color: {
    background: '#fbfaff',
    surface: '#ffffff',
    surfaceRaised: '#f0ecf8',
    border: '#8a7fa0',
    text: '#1a1229',
    textMuted: '#564b6b',
    primary: '#3f6b00',
    primaryHover: '#335800',
    onPrimary: '#ffffff',
    focusRing: '#3f6b00',
    dangerSurface: '#ffe3e8',
    onDanger: '#7a0019',
    warningSurface: '#fff1cc',
    onWarning: '#5c4100',
    successSurface: '#def7e4',
    onSuccess: '#0d4a1f',
    backdrop: 'rgba(26, 18, 41, 0.55)',
    skeleton: '#e6e0f0',
    mark: '#e4f7a8',
    onMark: '#1a1229',
  },
  shadow: {
    popup: '0 12px 32px rgba(26, 18, 41, 0.18)',
    dialog: '0 24px 64px rgba(26, 18, 41, 0.28)',
  },
};

/**
 * Text/background pairs that must meet WCAG 2.2 AA (4.5:1 for body text). Kept beside the
 * palette so a new colour and its pairing are reviewed together.
 */
export const contrastPairs: ReadonlyArray<[text: keyof ThemeValues['color'], background: keyof ThemeValues['color']]> = [
  ['text', 'background'],
  ['text', 'surface'],
  ['text', 'surfaceRaised'],
  ['textMuted', 'background'],
  ['textMuted', 'surface'],
  ['textMuted', 'surfaceRaised'],
  ['onPrimary', 'primary'],
  ['onPrimary', 'primaryHover'],
  ['primary', 'background'],
  ['primary', 'surface'],
  ['onDanger', 'dangerSurface'],
  ['onWarning', 'warningSurface'],
  ['onSuccess', 'successSurface'],
  ['onMark', 'mark'],
];

/** Non-text UI pairs (borders, focus rings) that must meet 3:1 (WCAG 1.4.11). */
export const uiContrastPairs: ReadonlyArray<[ui: keyof ThemeValues['color'], background: keyof ThemeValues['color']]> = [
  ['focusRing', 'background'],
  ['focusRing', 'surface'],
  ['border', 'surface'],
  ['border', 'background'],
];
