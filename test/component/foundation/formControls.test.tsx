import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import * as account from '../../../src/components/AccountPanel/AccountPanel.css';
import * as runner from '../../../src/components/ServiceRunner/ServiceRunner.css';
import { formControls } from '../../../src/theme/controls.css';
import { darkTheme } from '../../../src/theme/dark.css';
import { darkValues } from '../../../src/theme/tokens';
import * as publish from '../../../reference-app/src/pages/publish/publish.css';

// The site's one form density (docs/api-surface.md): theme/controls.css exports its four form
// controls as one object, `formControls`, which the account panels, the runner and the service
// editor take their fields from. In a real browser: each class still styles its control.
describe('formControls (theme/controls.css)', () => {
  it('styles a field, a text input, a check box and a file input in the theme', () => {
    render(
      <div className={darkTheme}>
        <label className={formControls.field}>
          Name
          <input className={formControls.text} />
        </label>
        <input type="checkbox" className={formControls.choice} aria-label="Public" />
        <input type="file" className={formControls.file} aria-label="Picture" />
      </div>,
    );
    const label = getComputedStyle(screen.getByText('Name'));
    expect({ display: label.display, fontWeight: label.fontWeight, fontSize: label.fontSize, rowGap: label.rowGap }).toEqual({
      display: 'grid',
      fontWeight: '600',
      fontSize: '14px',
      rowGap: '4px',
    });
    // The control keeps the body's weight and size inside the semi-bold, smaller label.
    const text = getComputedStyle(screen.getByRole('textbox', { name: 'Name' }));
    expect({ fontWeight: text.fontWeight, fontSize: text.fontSize, minHeight: text.minHeight, border: text.borderTopWidth }).toEqual({
      fontWeight: '400',
      fontSize: '16px',
      minHeight: '40px',
      border: '1px',
    });
    const choice = getComputedStyle(screen.getByRole('checkbox', { name: 'Public' }));
    // 1.1rem: 17.6 px, as the layout rounds it.
    expect(parseFloat(choice.width)).toBeCloseTo(17.6, 1);
    expect(parseFloat(choice.height)).toBeCloseTo(17.6, 1);
    expect(choice.accentColor).toBe(colour(darkValues.color.primary));
    const file = getComputedStyle(screen.getByLabelText('Picture'));
    expect({ fontSize: file.fontSize, color: file.color }).toEqual({ fontSize: '14px', color: colour(darkValues.color.textMuted) });
  });

  it('is what the account panels, the runner and the service editor use', () => {
    expect(account.field).toBe(formControls.field);
    expect(account.fileInput).toBe(formControls.file);
    expect(account.input.split(' ')).toContain(formControls.text);
    expect(runner.fileInput).toBe(formControls.file);
    expect(runner.input.split(' ')).toContain(formControls.text);
    expect(publish.field).toBe(formControls.field);
    expect(publish.choiceInput).toBe(formControls.choice);
    expect(publish.fileInput).toBe(formControls.file);
    expect(publish.input.split(' ')).toContain(formControls.text);
  });
});

/** A CSS colour as the browser computes it (`#c8f03c` -> `rgb(200, 240, 60)`). */
function colour(css: string): string {
  const probe = document.createElement('span');
  probe.style.color = css;
  document.body.append(probe);
  const computed = getComputedStyle(probe).color;
  probe.remove();
  return computed;
}
