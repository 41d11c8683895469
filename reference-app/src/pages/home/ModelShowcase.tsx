// Placeholder: the home page model showcase (catalogue work).
export function ModelShowcase() {
  return null;
}
