// Placeholder page; replaced by the issue that builds it.
export default function HostingPage() {
  return <h1>HostingPage</h1>;
}
