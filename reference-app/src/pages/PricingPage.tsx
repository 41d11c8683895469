// Placeholder page; replaced by the issue that builds it.
export default function PricingPage() {
  return <h1>PricingPage</h1>;
}
