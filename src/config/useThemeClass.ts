import { darkTheme } from '../theme/dark.css';
import { lightTheme } from '../theme/light.css';
import { usePlatform } from './PlatformProvider';

/** Class name to put on every widget root (and portal root) so theme variables apply. */
export function useThemeClass(): string {
  const { theme } = usePlatform();
  return theme === 'light' ? lightTheme : theme === 'dark' ? darkTheme : '';
}
