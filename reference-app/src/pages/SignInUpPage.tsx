// Placeholder page; replaced by the issue that builds it.
export default function SignInUpPage() {
  return <h1>SignInUpPage</h1>;
}
