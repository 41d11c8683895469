import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { focusFirstInvalid } from '../../../reference-app/src/pages/publish/focusFirstInvalid';

// The service editor focuses the first invalid field after a refused save (issue 39, item 3): the
// first in the order the page shows them, whatever order the errors came in.

describe('focusFirstInvalid', () => {
  it('focuses the first field marked invalid in document order; says so when there is none', () => {
    const { container } = render(
      <form>
        <input aria-label="Name" />
        <textarea aria-label="Description" aria-invalid="true" />
        <select aria-label="GPU" aria-invalid="true" />
      </form>,
    );
    expect(focusFirstInvalid(container)).toBe(true);
    expect(screen.getByLabelText('Description')).toHaveFocus();
    screen.getByLabelText('Description').removeAttribute('aria-invalid');
    screen.getByLabelText('GPU').removeAttribute('aria-invalid');
    screen.getByLabelText('Name').focus();
    expect(focusFirstInvalid(container)).toBe(false);
    expect(screen.getByLabelText('Name')).toHaveFocus();
    expect(focusFirstInvalid(null)).toBe(false);
  });
});
