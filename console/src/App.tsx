import { ApolloProvider, useQuery } from '@apollo/client/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createClient } from './api/client';
import { Layout } from './components/Layout';
import { graphql } from './gql';
import { clearPendingSignIn, completeOidcSignIn, configuredOidc, endOidcSession, isOidcCallback } from './oidc';
import { AccountPage } from './pages/AccountPage';
import { AccountsPage } from './pages/AccountsPage';
import { AuditPage } from './pages/AuditPage';
import { ClockPage } from './pages/ClockPage';
import { CustomerPage } from './pages/CustomerPage';
import { CustomersPage } from './pages/CustomersPage';
import { EventsPage } from './pages/EventsPage';
import { NewCustomerPage } from './pages/NewCustomerPage';
import { ProductPage } from './pages/ProductPage';
import { ProductsPage } from './pages/ProductsPage';
import { ReviewsPage } from './pages/ReviewsPage';
import { SignIn } from './pages/SignIn';
import { WebhooksPage } from './pages/WebhooksPage';
import { Router, useRoute } from './router';
import { clearSession, readSession, saveSession, type Session } from './session';
import { joinSessionSharing, type SessionSharing } from './session-sharing';
import { useLiveRevalidation } from './live-validation';
import { useUnsavedFormsGuard } from './unsaved-forms';
import { ViewerContext, type ViewerState } from './viewer';

const ViewerQuery = graphql(`
  query Viewer {
    viewer {
      name
      scopes
      environments
    }
  }
`);

export function App() {
  const [session, setSession] = useState<Session | null>(readSession);
  useLiveRevalidation();
  const [problem, setProblem] = useState<unknown>(null);
  // The identity provider's answer (/console/callback): completed before the router reads the address.
  const [completing, setCompleting] = useState(isOidcCallback);
  // A tab opened without a session first asks the console's open tabs for theirs (session-sharing.ts).
  const [asking, setAsking] = useState(() => readSession() === null && !isOidcCallback());
  const current = useRef(session);
  useEffect(() => {
    current.current = session;
  }, [session]);
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
  // The channel lives as long as the page: the session-sharing.ts exchange, joined once per mount.
  const sharing = useRef<SessionSharing | null>(null);
  useEffect(() => {
    const joined = joinSessionSharing(
      () => current.current,
      () => signOut(),
    );
    sharing.current = joined;
    let cancelled = false;
    if (!current.current && !isOidcCallback()) {
      void joined.ask().then((shared) => {
        if (cancelled) return;
        if (shared && !current.current) {
          saveSession(shared);
          setSession(shared);
        }
        setAsking(false);
      });
    }
    return () => {
      cancelled = true;
      joined.close();
      sharing.current = null;
    };
  }, [signOut]);
  // Sign out pressed: the tab forgets its tokens first, whatever follows; a session that began at the
  // identity provider then ends there too (RP-initiated logout), which comes back to the sign-in page.
  const signOutByUser = useCallback(() => {
    const idToken = readSession()?.idToken;
    signOut();
    sharing.current?.signedOut();
    const settings = configuredOidc();
    if (idToken && settings) endOidcSession(settings, idToken).catch((reason: unknown) => setProblem(reason));
  }, [signOut]);
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
  if (asking) {
    return (
      <main className="sign-in">
        <p className="loading" role="status">
          Looking for an open session…
        </p>
      </main>
    );
  }
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
      {session ? (
        <SignedIn
          key={`${session.environment} ${session.token}`}
          session={session}
          onSignIn={signIn}
          onSignOut={signOut}
          onSignOutByUser={signOutByUser}
        />
      ) : (
        <SignIn onSignIn={signIn} problem={problem} />
      )}
    </Router>
  );
}

interface SignedInProps {
  session: Session;
  onSignIn(session: Session): void;
  onSignOut(reason?: unknown): void;
  onSignOutByUser(): void;
}

function SignedIn({ session, ...props }: SignedInProps) {
  const { client, dispose } = useMemo(() => createClient(session.environment, session.token), [session]);
  useEffect(() => dispose, [dispose]);
  return (
    <ApolloProvider client={client}>
      <Viewer session={session} {...props} />
    </ApolloProvider>
  );
}

function Viewer({ session, onSignIn, onSignOut, onSignOutByUser }: SignedInProps) {
  const { data, error } = useQuery(ViewerQuery, { fetchPolicy: 'network-only' });
  useUnsavedFormsGuard();
  const viewer = useMemo<ViewerState | null>(
    () =>
      data
        ? {
            name: data.viewer.name,
            environment: session.environment,
            environments: data.viewer.environments,
            scopes: new Set(data.viewer.scopes),
            signOut: onSignOutByUser,
            switchEnvironment: (environment) => onSignIn({ ...session, environment }),
          }
        : null,
    [data, session, onSignIn, onSignOutByUser],
  );
  // The token was refused (expired, revoked, or not for this environment): back to the sign-in form, saying why.
  useEffect(() => {
    if (error) onSignOut(error);
  }, [error, onSignOut]);
  if (error) return null;
  if (!viewer)
    return (
      <p className="loading" role="status">
        Signing in…
      </p>
    );
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
    case 'accounts':
      return <AccountsPage />;
    case 'account':
      return <AccountPage accountId={route.accountId} />;
    case 'events':
      return <EventsPage />;
    case 'webhooks':
      return <WebhooksPage />;
    case 'audit':
      return <AuditPage />;
    case 'clock':
      return <ClockPage />;
    case 'reviews':
      return <ReviewsPage />;
    case 'products':
      return <ProductsPage />;
    case 'product':
      return <ProductPage code={route.code} />;
    default:
      return <h1>Page not found</h1>;
  }
}
