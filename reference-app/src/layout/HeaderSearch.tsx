// Placeholder: the header's service search (catalogue work).
export function HeaderSearch() {
  return null;
}
