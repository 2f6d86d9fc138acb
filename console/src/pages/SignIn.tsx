import { type FormEvent, useState } from 'react';
import { Button, Input, Label, TextField } from 'react-aria-components';
import { ProblemMessage } from '../components/ProblemMessage';
import { configuredOidc, startOidcSignIn } from '../oidc';
import { configuredEnvironments, type Session } from '../session';

/**
 * Sign in with an API token (kept in sessionStorage only), or, when the service configures it, at the
 * identity provider (Authorization Code with PKCE, src/oidc.ts). The environment is chosen here because
 * GraphQL is per environment; the token's own environments are offered after sign-in (`viewer`).
 */
export function SignIn({ onSignIn, problem }: { onSignIn(session: Session): void; problem: unknown }) {
  const environments = configuredEnvironments();
  const oidc = configuredOidc();
  const [environment, setEnvironment] = useState(environments[0] ?? 'sandbox');
  const [token, setToken] = useState('');
  const [oidcProblem, setOidcProblem] = useState<unknown>(null);
  const [redirecting, setRedirecting] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim() !== '') onSignIn({ token: token.trim(), environment });
  };
  const signInAtProvider = () => {
    if (!oidc) return;
    setOidcProblem(null);
    setRedirecting(true);
    startOidcSignIn(oidc, environment).catch((reason: unknown) => {
      setRedirecting(false);
      setOidcProblem(reason);
    });
  };
  return (
    <main className="sign-in">
      <h1>Sign in to the console</h1>
      <form onSubmit={submit}>
        <label className="field">
          <span>Environment</span>
          <select value={environment} onChange={(event) => setEnvironment(event.target.value)}>
            {environments.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <TextField className="field" type="password" value={token} onChange={setToken} isRequired autoComplete="off">
          <Label>API token</Label>
          <Input />
        </TextField>
        <Button type="submit">Sign in</Button>
      </form>
      {oidc && (
        <section aria-labelledby="sign-in-provider">
          <h2 id="sign-in-provider">Or sign in at your organisation</h2>
          <Button onPress={signInAtProvider} isDisabled={redirecting}>
            Sign in with {oidc.providerName ?? 'your identity provider'}
          </Button>
        </section>
      )}
      <ProblemMessage error={oidcProblem ?? problem} />
    </main>
  );
}
