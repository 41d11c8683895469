import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AuthDialog } from '../../../src/components/AuthDialog';
import { mount } from './setup';

// A host page's CSS reset (`* { margin: 0 }`) takes away the browser's default `margin: auto`
// of a modal <dialog>; the overlay centres itself (AuthDialog.css.ts) and stays centred.
describe('AuthDialog overlay position', () => {
  it('stays centred in the viewport under a page reset of * { margin: 0 }', async () => {
    const reset = document.createElement('style');
    reset.textContent = '* { margin: 0; padding: 0; }';
    document.head.append(reset);
    try {
      mount((actors) => <AuthDialog mode="overlay" actors={actors} />);
      const dialog = await screen.findByRole('dialog');
      await waitFor(() => expect(dialog.getBoundingClientRect().width).toBeGreaterThan(0));
      const box = dialog.getBoundingClientRect();
      const left = box.left;
      const right = window.innerWidth - box.right;
      expect(left).toBeGreaterThan(8);
      expect(Math.abs(left - right)).toBeLessThanOrEqual(1);
      const top = box.top;
      const bottom = window.innerHeight - box.bottom;
      expect(Math.abs(top - bottom)).toBeLessThanOrEqual(1);
    } finally {
      reset.remove();
    }
  });
});
