// Placeholder page; replaced by the issue that builds it.
export default function ServicePage() {
  return <h1>ServicePage</h1>;
}
