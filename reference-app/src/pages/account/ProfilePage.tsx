// Placeholder page; replaced by the issue that builds it.
export default function ProfilePage() {
  return <h1>ProfilePage</h1>;
}
