// Placeholder page; replaced by the issue that builds it.
export default function OverviewPage() {
  return <h1>OverviewPage</h1>;
}
