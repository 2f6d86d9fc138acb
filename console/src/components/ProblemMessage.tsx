import { apiProblem } from '../api/errors';

/** A refusal from the API, shown with its code and message (an alert, so screen readers announce it). */
export function ProblemMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const problem = apiProblem(error);
  return (
    <p role="alert" className="problem">
      <code>{problem.code}</code> {problem.message}
    </p>
  );
}
