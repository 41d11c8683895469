// Placeholder page; replaced by the issue that builds it.
export default function SupportPage() {
  return <h1>SupportPage</h1>;
}
