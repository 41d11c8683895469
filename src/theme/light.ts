export { lightTheme } from './light.css';
export { lightValues } from './tokens';
