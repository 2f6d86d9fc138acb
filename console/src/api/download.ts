import { readSession } from '../session';
import { RestProblem } from './errors';

/**
 * GETs a file from the REST API with the token in the Authorization header (never in a URL) and offers it as
 * a download through a Blob URL, revoked once the browser has it. A refusal becomes a `RestProblem` with the
 * envelope's code and message.
 */
export async function downloadFile(path: string, accept: string, filename: string): Promise<void> {
  const session = readSession();
  if (!session) throw new RestProblem('UNAUTHENTICATED', 'Sign in again.');
  const response = await fetch(path, {
    headers: { authorization: `Bearer ${session.token}`, accept },
    cache: 'no-store',
  });
  if (!response.ok) {
    let problem: { code?: unknown; message?: unknown } | undefined;
    try {
      problem = ((await response.json()) as { error?: { code?: unknown; message?: unknown } }).error;
    } catch {
      // not an envelope: the status says it
    }
    throw new RestProblem(
      typeof problem?.code === 'string' ? problem.code : `HTTP_${response.status}`,
      typeof problem?.message === 'string' ? problem.message : response.statusText,
    );
  }
  offerBlob(await response.blob(), filename);
}

/** Offers a Blob as a download named `filename` through a Blob URL, revoked once the browser has it. */
export function offerBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
