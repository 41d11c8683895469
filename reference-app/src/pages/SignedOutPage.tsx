// Placeholder page; replaced by the issue that builds it.
export default function SignedOutPage() {
  return <h1>SignedOutPage</h1>;
}
