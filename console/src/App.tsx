import { ApolloProvider, useQuery } from '@apollo/client/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { createClient } from './api/client';
import { Layout } from './components/Layout';
import { graphql } from './gql';
import { clearPendingSignIn, completeOidcSignIn, configuredOidc, isOidcCallback } from './oidc';
import { AccountPage } from './pages/AccountPage';
import { AuditPage } from './pages/AuditPage';
import { CustomerPage } from './pages/CustomerPage';
import { CustomersPage } from './pages/CustomersPage';
import { EventsPage } from './pages/EventsPage';
import { NewCustomerPage } from './pages/NewCustomerPage';
import { SignIn } from './pages/SignIn';
import { WebhooksPage } from './pages/WebhooksPage';
import { Router, useRoute } from './router';
import { clearSession, readSession, saveSession, type Session } from './session';
import { ViewerContext, type ViewerState } from './viewer';

const ViewerQuery = graphql(`
  query Viewer {
    viewer {
      scopes
      environments
    }
  }
`);

export function App() {
  const [session, setSession] = useState<Session | null>(readSession);
  const [problem, setProblem] = useState<unknown>(null);
  // The identity provider's answer (/console/callback): completed before the router reads the address.
  const [completing, setCompleting] = useState(isOidcCallback);
  const signIn = useCallback((next: Session) => {
    saveSession(next);
    setProblem(null);
    setSession(next);
  }, []);
  const signOut = useCallback((reason: unknown = null) => {
    clearSession();
    clearPendingSignIn();
    setProblem(reason);
    setSession(null);
  }, []);
  useEffect(() => {
    if (!isOidcCallback()) return;
    const settings = configuredOidc();
    if (settings === null) {
      window.history.replaceState(null, '', '/console');
      setCompleting(false);
      return;
    }
    completeOidcSignIn(settings).then(
      ({ session: next }) => {
        signIn(next);
        setCompleting(false);
      },
      (reason: unknown) => {
        signOut(reason);
        setCompleting(false);
      },
    );
  }, [signIn, signOut]);
  if (completing) {
    return (
      <main className="sign-in">
        <p className="loading" role="status">
          Completing sign-in…
        </p>
      </main>
    );
  }
  return (
    <Router>
      {session ? <SignedIn key={`${session.environment} ${session.token}`} session={session} onSignIn={signIn} onSignOut={signOut} /> : <SignIn onSignIn={signIn} problem={problem} />}
    </Router>
  );
}

function SignedIn({ session, onSignIn, onSignOut }: { session: Session; onSignIn(session: Session): void; onSignOut(reason?: unknown): void }) {
  const { client, dispose } = useMemo(() => createClient(session.environment, session.token), [session]);
  useEffect(() => dispose, [dispose]);
  return (
    <ApolloProvider client={client}>
      <Viewer session={session} onSignIn={onSignIn} onSignOut={onSignOut} />
    </ApolloProvider>
  );
}

function Viewer({ session, onSignIn, onSignOut }: { session: Session; onSignIn(session: Session): void; onSignOut(reason?: unknown): void }) {
  const { data, error } = useQuery(ViewerQuery, { fetchPolicy: 'network-only' });
  const viewer = useMemo<ViewerState | null>(
    () =>
      data
        ? {
            environment: session.environment,
            environments: data.viewer.environments,
            scopes: new Set(data.viewer.scopes),
            signOut: () => onSignOut(),
            switchEnvironment: (environment) => onSignIn({ ...session, environment }),
          }
        : null,
    [data, session, onSignIn, onSignOut],
  );
  // The token was refused (expired, revoked, or not for this environment): back to the sign-in form, saying why.
  useEffect(() => {
    if (error) onSignOut(error);
  }, [error, onSignOut]);
  if (error) return null;
  if (!viewer) return <p className="loading" role="status">Signing in…</p>;
  return (
    <ViewerContext.Provider value={viewer}>
      <Layout>
        <CurrentPage />
      </Layout>
    </ViewerContext.Provider>
  );
}

function CurrentPage() {
  const { route } = useRoute();
  switch (route.page) {
    case 'customers':
      return <CustomersPage />;
    case 'new-customer':
      return <NewCustomerPage />;
    case 'customer':
      return <CustomerPage customerId={route.customerId} />;
    case 'account':
      return <AccountPage accountId={route.accountId} />;
    case 'events':
      return <EventsPage />;
    case 'webhooks':
      return <WebhooksPage />;
    case 'audit':
      return <AuditPage />;
    default:
      return <h1>Page not found</h1>;
  }
}
