// Placeholder page; replaced by the issue that builds it.
export default function CompanyPage() {
  return <h1>CompanyPage</h1>;
}
