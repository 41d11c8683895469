// Placeholder page; replaced by the issue that builds it.
export default function BillingPage() {
  return <h1>BillingPage</h1>;
}
