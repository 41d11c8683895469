// Placeholder page; replaced by the issue that builds it.
export default function HomePage() {
  return <h1>HomePage</h1>;
}
