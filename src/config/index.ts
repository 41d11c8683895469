// @limelight/widgets/platform: the provider every widget reads (API and auth URLs, navigation,
// brand, theme, the strings table) and the hooks over it. Stable.
export { PlatformProvider, usePlatform, useStrings } from './PlatformProvider';
export type { PlatformConfig, PlatformProviderProps, ThemeName } from './PlatformProvider';
export { defaultStrings, formatString } from './strings';
export type { Strings, StringOverrides, DeepPartial } from './strings';
