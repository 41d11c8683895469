/**
 * Moves focus to the first field of `root` marked invalid, in the order the page shows them
 * (issue 39: the editor said "Some fields need attention" and left the reader to find them, often
 * far down the form). Returns whether there was one; scrolling follows focus.
 */
export function focusFirstInvalid(root: ParentNode | null): boolean {
  const field = root?.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (!field) return false;
  field.focus();
  return true;
}
