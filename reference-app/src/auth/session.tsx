// Placeholder until the sign-in work lands: anonymous visitor, no token.
import type { ReactNode } from 'react';

export const getAccessToken = async (): Promise<string | null> => null;

export function AppAuthProvider({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
