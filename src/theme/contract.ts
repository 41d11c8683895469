export { vars } from './vars.css';
export type { ThemeValues } from './tokens';
