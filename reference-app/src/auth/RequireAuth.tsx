// Placeholder until the sign-in work lands: the route guard of spec §4.
import type { ReactNode } from 'react';

export function RequireAuth({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
