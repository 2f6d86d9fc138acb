import { type FormEvent, useState } from 'react';
import { Button, Input, Label, TextField } from 'react-aria-components';
import { ProblemMessage } from '../components/ProblemMessage';
import { configuredEnvironments, type Session } from '../session';

/**
 * Sign in with an API token (kept in sessionStorage only). The environment is chosen here because GraphQL is
 * per environment; the token's own environments are offered after sign-in (`viewer`).
 * OIDC (Authorization Code with PKCE) is not offered yet.
 */
export function SignIn({ onSignIn, problem }: { onSignIn(session: Session): void; problem: unknown }) {
  const environments = configuredEnvironments();
  const [environment, setEnvironment] = useState(environments[0] ?? 'sandbox');
  const [token, setToken] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim() !== '') onSignIn({ token: token.trim(), environment });
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
      <ProblemMessage error={problem} />
    </main>
  );
}
