export { PlatformProvider, usePlatform, useStrings, resolvePlatformConfig } from './PlatformProvider';
export type { PlatformConfig, PlatformProviderProps, ThemeName } from './PlatformProvider';
export { useThemeClass } from './useThemeClass';
export { defaultStrings, mergeStrings, formatString } from './strings';
export { CREDENTIAL_TOAST_MS } from './strings/account';
export type { Strings, StringOverrides, DeepPartial } from './strings';
