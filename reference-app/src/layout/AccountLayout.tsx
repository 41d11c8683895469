import { Outlet } from 'react-router';
// Placeholder: account area layout with the route guard (sign-in work), spec §2.
export default function AccountLayout() {
  return <Outlet />;
}
