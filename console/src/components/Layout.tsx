import type { ReactNode } from 'react';
import { Button, Link } from 'react-aria-components';
import { paths, useRoute } from '../router';
import { GlobalSearch } from '../search/GlobalSearch';
import { useViewer } from '../viewer';

/** Header, navigation (the pages the token may read) and the page's own content. */
export function Layout({ children }: { children: ReactNode }) {
  const viewer = useViewer();
  const { route } = useRoute();
  const links = [
    {
      href: paths.customers(),
      label: 'Customers',
      scope: 'customers:read',
      current: route.page === 'customers' || route.page === 'customer' || route.page === 'new-customer',
    },
    {
      href: paths.accounts(),
      label: 'Accounts',
      scope: 'accounts:read',
      current: route.page === 'accounts' || route.page === 'account',
    },
    { href: paths.events(), label: 'Events', scope: 'events:read', current: route.page === 'events' },
    { href: paths.webhooks(), label: 'Webhooks', scope: 'webhooks:read', current: route.page === 'webhooks' },
    {
      href: paths.reviews(),
      label: 'Reviews',
      scope: 'verification:read',
      current: route.page === 'reviews',
    },
    {
      href: paths.products(),
      label: 'Products',
      scope: 'products:read',
      current: route.page === 'products' || route.page === 'product',
    },
    { href: paths.audit(), label: 'Audit', scope: 'audit:read', current: route.page === 'audit' },
    { href: paths.clock(), label: 'Clock', scope: 'accounts:read', current: route.page === 'clock' },
  ].filter((link) => viewer.scopes.has(link.scope));
  return (
    <>
      {/* WCAG 2.4.1: the first tab stop skips the header's links, search and session to the page itself. */}
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="top">
        <p className="brand">Customer &amp; Account Service</p>
        <nav aria-label="Console">
          <ul>
            {links.map((link) => (
              <li key={link.href}>
                <Link href={link.href} aria-current={link.current ? 'page' : undefined}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <GlobalSearch />
        <div className="session">
          <details className="signed-in">
            <summary>
              Signed in as <strong>{viewer.name}</strong>
            </summary>
            <p>Scopes of this token:</p>
            <ul aria-label="Scopes of this token">
              {[...viewer.scopes].map((scope) => (
                <li key={scope}>
                  <code>{scope}</code>
                </li>
              ))}
            </ul>
          </details>
          {viewer.environments.length > 1 ? (
            <label>
              Environment{' '}
              <select value={viewer.environment} onChange={(event) => viewer.switchEnvironment(event.target.value)}>
                {viewer.environments.map((name) => (
                  <option key={name}>{name}</option>
                ))}
              </select>
            </label>
          ) : (
            <span>Environment: {viewer.environment}</span>
          )}
          <Button onPress={viewer.signOut}>Sign out</Button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
