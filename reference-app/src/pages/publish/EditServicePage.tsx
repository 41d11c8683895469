// Placeholder page; replaced by the issue that builds it.
export default function EditServicePage() {
  return <h1>EditServicePage</h1>;
}
