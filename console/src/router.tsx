import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { RouterProvider } from 'react-aria-components';
import { mayLeavePage } from './unsaved-forms';

/**
 * A few routes, so a tiny router: the path under /console decides the page; links navigate with the History
 * API (React Aria's RouterProvider makes its Links do so), and deep links load directly because the service
 * answers every /console/… path with the console's page.
 */
export const BASE = '/console';

export type Route =
  | { page: 'customers' }
  | { page: 'new-customer' }
  | { page: 'customer'; customerId: string }
  | { page: 'accounts' }
  | { page: 'account'; accountId: string }
  | { page: 'events' }
  | { page: 'webhooks' }
  | { page: 'audit' }
  | { page: 'clock' }
  | { page: 'reviews' }
  | { page: 'products' }
  | { page: 'product'; code: string }
  | { page: 'not-found' };

export function parseRoute(pathname: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = rest.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'customers')) return { page: 'customers' };
  if (parts.length === 2 && parts[0] === 'customers' && parts[1] === 'new') return { page: 'new-customer' };
  if (parts.length === 2 && parts[0] === 'customers') return { page: 'customer', customerId: parts[1]! };
  if (parts.length === 1 && parts[0] === 'accounts') return { page: 'accounts' };
  if (parts.length === 2 && parts[0] === 'accounts') return { page: 'account', accountId: parts[1]! };
  if (parts.length === 1 && (parts[0] === 'events' || parts[0] === 'webhooks' || parts[0] === 'audit'))
    return { page: parts[0] };
  // Not /console/clock: /{environment}/clock is the API's, and the API's routes come first.
  if (parts.length === 1 && parts[0] === 'time') return { page: 'clock' };
  if (parts.length === 1 && parts[0] === 'verification') return { page: 'reviews' };
  if (parts.length === 1 && parts[0] === 'products') return { page: 'products' };
  if (parts.length === 2 && parts[0] === 'products') return { page: 'product', code: parts[1]! };
  return { page: 'not-found' };
}

export const paths = {
  customers: () => `${BASE}/customers`,
  newCustomer: () => `${BASE}/customers/new`,
  customer: (customerId: string) => `${BASE}/customers/${encodeURIComponent(customerId)}`,
  accounts: () => `${BASE}/accounts`,
  account: (accountId: string) => `${BASE}/accounts/${encodeURIComponent(accountId)}`,
  events: () => `${BASE}/events`,
  webhooks: () => `${BASE}/webhooks`,
  audit: () => `${BASE}/audit`,
  clock: () => `${BASE}/time`,
  reviews: () => `${BASE}/verification`,
  products: () => `${BASE}/products`,
  product: (code: string) => `${BASE}/products/${encodeURIComponent(code)}`,
};

const RouteContext = createContext<{ route: Route; pathname: string; navigate: (href: string) => void }>({
  route: { page: 'customers' },
  pathname: BASE,
  navigate: () => undefined,
});

export function Router({ children }: { children: ReactNode }) {
  const [pathname, setPathname] = useState(() => window.location.pathname);
  useEffect(() => {
    const onPop = () => setPathname(window.location.pathname);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((href: string) => {
    if (href === window.location.pathname || !mayLeavePage()) return;
    window.history.pushState(null, '', href);
    setPathname(window.location.pathname);
    window.scrollTo(0, 0);
  }, []);
  const value = useMemo(() => ({ route: parseRoute(pathname), pathname, navigate }), [pathname, navigate]);
  return (
    <RouteContext.Provider value={value}>
      <RouterProvider navigate={navigate}>{children}</RouterProvider>
    </RouteContext.Provider>
  );
}

export const useRoute = () => useContext(RouteContext);
