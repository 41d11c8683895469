// Placeholder page; replaced by the issue that builds it.
export default function SubscribePage() {
  return <h1>SubscribePage</h1>;
}
