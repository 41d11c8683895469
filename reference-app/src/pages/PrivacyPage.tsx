// Placeholder page; replaced by the issue that builds it.
export default function PrivacyPage() {
  return <h1>PrivacyPage</h1>;
}
