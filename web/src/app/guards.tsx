import { useState, type ReactElement, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { isLoggedIn, loggedOutOnPurposeMark, useSession } from '../shared/session.ts';

/** The path to come back to after logging in, for the login URL (none for the home page). */
export function loginPath(from?: string): string {
  return from && from !== '/' && from !== '/home' && !from.startsWith('/login')
    ? `/login?redirect=${encodeURIComponent(from)}`
    : '/login';
}

/**
 * Spec §2 navigation guard, first half: no token or no stored user name sends the user to /login, before the
 * console's code loads. (The second half, reading the permission list when storage lacks it, is SessionGate.)
 */
export function RequireLogin({ children }: { children: ReactNode }): ReactElement {
  const session = useSession();
  const location = useLocation();
  if (!isLoggedIn(session)) {
    const purposeful = loggedOutOnPurposeMark();
    return <Navigate to={purposeful ? '/login' : loginPath(location.pathname + location.search)} replace />;
  }
  return <>{children}</>;
}

/** A logged-in user opening /login goes to / (checked when the page opens, not while logging in). */
export function PublicOnly({ children }: { children: ReactNode }): ReactElement {
  const [loggedInAtOpen] = useState(() => isLoggedIn());
  if (loggedInAtOpen) return <Navigate to="/" replace />;
  return <>{children}</>;
}
