import { createTheme } from '@vanilla-extract/css';
import { vars } from './vars.css';
import { darkValues } from './tokens';

/** Class that applies the default dark theme (lime on very dark purple, product-rules §1). */
export const darkTheme = createTheme(vars, darkValues);
