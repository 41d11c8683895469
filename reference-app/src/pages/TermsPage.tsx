// Placeholder page; replaced by the issue that builds it.
export default function TermsPage() {
  return <h1>TermsPage</h1>;
}
