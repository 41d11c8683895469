import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { mergeStrings, type StringOverrides, type Strings } from './strings';

/** The widgets' colour theme: `dark`, `light`, or `inherit` (the page sets the theme variables). */
export type ThemeName = 'dark' | 'light' | 'inherit';

/** Everything a widget needs to know about the platform it talks to. */
export interface PlatformConfig {
  /** Base URL of the platform API host (the clients append `/v1/...`). */
  apiUrl: string;
  /** Supabase-compatible auth URL (the client appends `/auth/v1`). */
  authUrl: string;
  /** Public (anon) key of the auth service. */
  authKey: string;
  /** Brand name shown in texts. */
  brand: string;
  /** Client-side navigation; components never import a router. */
  navigate: (path: string) => void;
  /** Resolved strings table. */
  strings: Strings;
  /** Theme applied to widget roots; `inherit` applies none so the host's `--lime-*` values rule. */
  theme: ThemeName;
  /** Returns the signed-in user's access token, or null when anonymous. */
  getAccessToken: () => Promise<string | null>;
}

/** Props of `PlatformProvider`: the platform configuration and the widgets below it. */
export interface PlatformProviderProps {
  /**
   * Base URL of the platform API.
   * @default window.location.origin
   */
  apiUrl?: string;
  /**
   * Auth service URL.
   * @default apiUrl
   */
  authUrl?: string;
  /**
   * Public key of the auth service.
   * @default ''
   */
  authKey?: string;
  /**
   * Brand name shown in texts.
   * @default 'Limelight'
   */
  brand?: string;
  /**
   * Called with an app path when a widget navigates.
   * @default path => window.location.assign(path)
   */
  navigate?: (path: string) => void;
  /** Overrides for any subset of the strings table. */
  strings?: StringOverrides;
  /**
   * Theme applied to widget roots.
   * @default 'dark'
   */
  theme?: ThemeName;
  /**
   * Supplies the bearer token for authenticated calls.
   * @default () => Promise.resolve(null)
   */
  getAccessToken?: () => Promise<string | null>;
  children?: ReactNode;
}

const defaultOrigin = () => (typeof window !== 'undefined' ? window.location.origin : 'http://localhost:3000');

export function resolvePlatformConfig(props: Omit<PlatformProviderProps, 'children'> = {}): PlatformConfig {
  const apiUrl = (props.apiUrl ?? defaultOrigin()).replace(/\/+$/, '');
  return {
    apiUrl,
    authUrl: (props.authUrl ?? apiUrl).replace(/\/+$/, ''),
    authKey: props.authKey ?? '',
    brand: props.brand ?? 'Limelight',
    navigate: props.navigate ?? ((path) => window.location.assign(path)),
    strings: mergeStrings(props.strings),
    theme: props.theme ?? 'dark',
    getAccessToken: props.getAccessToken ?? (() => Promise.resolve(null)),
  };
}

const PlatformContext = createContext<PlatformConfig | null>(null);

/** Holds platform endpoints, navigation, brand, theme and strings for every widget below it. */
export function PlatformProvider({ children, ...props }: PlatformProviderProps) {
  const { apiUrl, authUrl, authKey, brand, navigate, strings, theme, getAccessToken } = props;
  const config = useMemo(
    () => resolvePlatformConfig({ apiUrl, authUrl, authKey, brand, navigate, strings, theme, getAccessToken }),
    [apiUrl, authUrl, authKey, brand, navigate, strings, theme, getAccessToken],
  );
  return <PlatformContext.Provider value={config}>{children}</PlatformContext.Provider>;
}

let fallbackConfig: PlatformConfig | undefined;

/**
 * The platform configuration. Widgets used without a provider get the defaults (same origin,
 * dark theme, spec texts), so a lone component still works.
 */
export function usePlatform(): PlatformConfig {
  const config = useContext(PlatformContext);
  if (config) return config;
  fallbackConfig ??= resolvePlatformConfig();
  return fallbackConfig;
}

/** Shortcut for the strings table. */
export function useStrings(): Strings {
  return usePlatform().strings;
}
