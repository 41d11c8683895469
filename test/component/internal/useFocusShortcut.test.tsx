import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { focusShortcutOf, isEditableElement, useFocusShortcut } from '../../../src/internal/useFocusShortcut';

function Page({ enabled = true }: { enabled?: boolean }) {
  const ref = useRef<HTMLInputElement>(null);
  useFocusShortcut(ref, enabled);
  return (
    <>
      <button type="button">elsewhere</button>
      <textarea aria-label="notes" />
      <input aria-label="search" ref={ref} defaultValue="flux" />
    </>
  );
}

describe('focusShortcutOf', () => {
  const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...mods,
  });
  it('Ctrl+K and Cmd+K (either case), and a plain slash', () => {
    expect(focusShortcutOf(key('k', { ctrlKey: true }))).toBe('mod-k');
    expect(focusShortcutOf(key('K', { metaKey: true }))).toBe('mod-k');
    expect(focusShortcutOf(key('/'))).toBe('slash');
  });
  it('not with other modifiers, not other keys', () => {
    expect(focusShortcutOf(key('k'))).toBeNull();
    expect(focusShortcutOf(key('k', { ctrlKey: true, shiftKey: true }))).toBeNull();
    expect(focusShortcutOf(key('k', { ctrlKey: true, altKey: true }))).toBeNull();
    expect(focusShortcutOf(key('/', { ctrlKey: true }))).toBeNull();
    expect(focusShortcutOf(key('j', { ctrlKey: true }))).toBeNull();
  });
});

describe('isEditableElement', () => {
  it('text-like inputs, textareas, selects and contenteditable; not buttons, checkboxes or nothing', () => {
    const make = (html: string) => {
      const host = document.createElement('div');
      host.innerHTML = html;
      return host.firstElementChild;
    };
    expect(isEditableElement(make('<input type="search">'))).toBe(true);
    expect(isEditableElement(make('<input>'))).toBe(true);
    expect(isEditableElement(make('<textarea></textarea>'))).toBe(true);
    expect(isEditableElement(make('<select></select>'))).toBe(true);
    expect(isEditableElement(make('<input type="checkbox">'))).toBe(false);
    expect(isEditableElement(make('<button></button>'))).toBe(false);
    expect(isEditableElement(null)).toBe(false);
    const editable = document.createElement('div');
    editable.contentEditable = 'true';
    document.body.append(editable);
    expect(isEditableElement(editable)).toBe(true);
    editable.remove();
  });
});

describe('useFocusShortcut', () => {
  it("'/' and Ctrl+K from the page focus and select the input", async () => {
    const user = userEvent.setup();
    render(<Page />);
    const search = screen.getByLabelText<HTMLInputElement>('search');
    await user.click(screen.getByRole('button', { name: 'elsewhere' }));
    await user.keyboard('/');
    expect(search).toHaveFocus();
    expect([search.selectionStart, search.selectionEnd]).toEqual([0, 4]);
    expect(search).toHaveValue('flux');
    await user.click(screen.getByRole('button', { name: 'elsewhere' }));
    await user.keyboard('{Control>}k{/Control}');
    expect(search).toHaveFocus();
  });

  it.each([
    ['a slash typed in another field stays there', 'notes', 'a/b', 'a/b'],
    ['in the input itself a slash is typed', 'search', '{End}/', 'flux/'],
  ])('%s', async (_, label, keys, expected) => {
    const user = userEvent.setup();
    render(<Page />);
    const field = screen.getByLabelText(label);
    await user.click(field);
    await user.keyboard(keys);
    expect(field).toHaveFocus();
    expect(field).toHaveValue(expected);
  });

  it('disabled: the shortcut does nothing', async () => {
    const user = userEvent.setup();
    render(<Page enabled={false} />);
    await user.click(screen.getByRole('button', { name: 'elsewhere' }));
    await user.keyboard('/');
    expect(screen.getByLabelText('search')).not.toHaveFocus();
  });
});
