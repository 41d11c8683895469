export { darkTheme } from './dark.css';
export { darkValues } from './tokens';
