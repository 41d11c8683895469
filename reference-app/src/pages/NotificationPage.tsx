// Placeholder page; replaced by the issue that builds it.
export default function NotificationPage() {
  return <h1>NotificationPage</h1>;
}
