import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ImportForm } from '../../../reference-app/src/pages/publish/EndpointsEditor';
import type { ServiceEditor } from '../../../reference-app/src/pages/publish/useServiceEditor';

// The service editor's "Import endpoints" (issue 39, item 3): without a base URL or a document
// URL it is disabled, looks it (faded, no pointer) and says why, next to the button; with one it
// runs the import from the URL beside the base URL.

function editorWith(baseUrl: string) {
  const importEndpoints = vi.fn(async () => undefined);
  const editor = {
    draft: { runtime: { kind: 'http', baseUrl } },
    busy: null,
    importReport: null,
    importEndpoints,
  } as unknown as Pick<ServiceEditor, 'draft' | 'busy' | 'importReport' | 'importEndpoints'>;
  return { editor, importEndpoints };
}

describe('Import endpoints', () => {
  it('without a base URL: disabled, looks disabled and says why', async () => {
    render(<ImportForm editor={editorWith('').editor} />);
    const button = screen.getByRole('button', { name: 'Import endpoints' });
    expect(button).toHaveProperty('disabled', true);
    expect(button.getAttribute('aria-describedby')).toBeTruthy();
    const reason = document.getElementById(button.getAttribute('aria-describedby')!);
    // The base URL is given in the Runtime section, below Endpoints (issue 50, item 7: it said "above").
    expect(reason?.textContent).toMatch(/base URL in Runtime below/);
    const style = getComputedStyle(button);
    expect(style.cursor).toBe('not-allowed');
    expect(Number(style.opacity)).toBeLessThan(1);

    await userEvent.type(screen.getByLabelText('OpenAPI document URL'), 'https://api.example.com/openapi.json');
    expect(button).toHaveProperty('disabled', false);
    expect(button.getAttribute('aria-describedby')).toBeNull();
    expect(getComputedStyle(button).cursor).toBe('pointer');
  });

  it('with a base URL: enabled, and imports the document beside it', async () => {
    const { editor, importEndpoints } = editorWith('https://svc.example.com/');
    render(<ImportForm editor={editor} />);
    const button = screen.getByRole('button', { name: 'Import endpoints' });
    expect(button.getAttribute('aria-describedby')).toBeNull();
    await userEvent.click(button);
    expect(importEndpoints).toHaveBeenCalledWith({ url: 'https://svc.example.com/openapi.json' });
  });
});
