// Placeholder page; replaced by the issue that builds it.
export default function DashboardPage() {
  return <h1>DashboardPage</h1>;
}
