import { Link } from 'react-router';
// Placeholder: Login / Dashboard button (sign-in work), spec §2.
export function HeaderUserSection() {
  return <Link to="/signinup?page_state=1">Login</Link>;
}
