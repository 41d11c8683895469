// Placeholder page; replaced by the issue that builds it.
export default function NotFoundPage() {
  return <h1>NotFoundPage</h1>;
}
