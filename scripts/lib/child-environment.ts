/**
 * A minimal environment for a child process: nothing of ours leaks in (DATABASE_URL of the shell, tokens …).
 * The proxy and CA settings do: behind a TLS-intercepting proxy (as bank networks have) an install from the npm
 * registry needs them, and nothing measured reads them.
 */
const KEPT = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'];
const PROXIES = ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'].flatMap((name) => [name, name.toLowerCase()]);

export function childEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...KEPT, ...PROXIES]) if (process.env[name] !== undefined) env[name] = process.env[name];
  return { ...env, ...extra };
}
