import { createTheme } from '@vanilla-extract/css';
import { vars } from './vars.css';
import { lightValues } from './tokens';

/** Class that applies the light theme. */
export const lightTheme = createTheme(vars, lightValues);
