import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/vars.css';

export const charts = style({ display: 'grid', gap: vars.space.lg, gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))' });
