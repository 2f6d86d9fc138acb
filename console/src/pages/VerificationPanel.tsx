import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { type FormEvent, useEffect, useState } from 'react';
import { downloadFile } from '../api/download';
import { RestProblem } from '../api/errors';
import { readSession } from '../session';
import { Button, Link, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { FormProblems, ProblemTextField } from '../components/FormProblems';
import { ProblemMessage } from '../components/ProblemMessage';
import { customerName, enumLabel, instant } from '../format';
import { graphql } from '../gql';
import type {
  CustomerVerificationQuery,
  VerificationDecisionOutcome,
  VerificationDocumentReasonCode,
  VerificationDocumentReviewStatus,
} from '../gql/graphql';
import { paths } from '../router';
import { useCan, useViewer } from '../viewer';

const CustomerVerification = graphql(`
  query CustomerVerification($customerId: ID!) {
    customer(customerId: $customerId) {
      id
      beneficialOwners {
        customerId
        prongs
        ownershipPercentage
        customer {
          id
          firstName
          middleName
          lastName
          business {
            legalName
          }
          verification {
            customerId
            status
          }
        }
      }
      verification {
        customerId
        status
        requirements {
          currentlyDue
          pendingVerification
          errors {
            requirement
            code
            reason
          }
        }
        checks {
          checkId
          kind
          provider
          status
          outcome
          reasonCodes
          requestedAt
          completedAt
        }
        documents {
          documentId
          type
          mediaType
          sizeBytes
          status
          reasonCode
          uploadedBy
          uploadedAt
          reviewedBy
          reviewedAt
        }
        decision {
          outcome
          reason
          decidedBy
          decidedAt
        }
      }
    }
  }
`);

const RequestCheck = graphql(`
  mutation RequestVerificationCheck($customerId: ID!) {
    requestVerificationCheck(customerId: $customerId) {
      checkId
      status
    }
  }
`);

const DecideVerification = graphql(`
  mutation DecideVerification($customerId: ID!, $input: VerificationDecisionInput!) {
    decideVerification(customerId: $customerId, input: $input) {
      customerId
      status
    }
  }
`);

const ReviewDocument = graphql(`
  mutation ReviewDocument($customerId: ID!, $documentId: ID!, $input: ReviewDocumentInput!) {
    reviewDocument(customerId: $customerId, documentId: $documentId, input: $input) {
      documentId
      status
      reasonCode
    }
  }
`);

type Verification = NonNullable<NonNullable<CustomerVerificationQuery['customer']>['verification']>;
type Owner = NonNullable<NonNullable<CustomerVerificationQuery['customer']>['beneficialOwners']>[number];
type Document = Verification['documents'][number];

const statusLabel: Record<string, string> = {
  UNVERIFIED: 'Unverified',
  PENDING: 'Check running',
  NEEDS_REVIEW: 'Needs review',
  VERIFIED: 'Verified',
  REJECTED: 'Rejected',
};

export const fileSize = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${(bytes / 1048576).toFixed(1)} MiB`;

/** What every customer of a kind needs (docs/verification.md), in the checklist's order; a business's owners follow. */
const baseRequirements = (business: boolean) =>
  business ? ['business_check', 'formation_document', 'beneficial_owners'] : ['identity_check'];

/** Each requirement in words, as docs/verification.md states when it is met. */
const requirementText: Record<string, string> = {
  identity_check: "A check of the person's name, date of birth, address and SSN.",
  business_check: "A check of the business's legal name, EIN, address and formation.",
  formation_document: 'An approved certificate of formation.',
  beneficial_owners:
    'Its beneficial owners under the CDD rule: at least one control person, and every owner listed by ownership at 25 % or more.',
};

const OWNER_PREFIX = 'owner_verification:';

type RequirementState = 'due' | 'pending' | 'met';
const requirementLabel: Record<RequirementState, string> = { due: 'Due', pending: 'Pending', met: 'Met' };

/** An owner's requirement: who, as what, and where its own verification stands (a link to its page). */
function OwnerRequirement({ owner }: { owner: Owner }) {
  const name = owner.customer ? customerName(owner.customer) : owner.customerId;
  const share = owner.ownershipPercentage ? `, ${owner.ownershipPercentage} %` : '';
  const status = owner.customer?.verification?.status;
  return (
    <span className="requirement-text">
      {' '}
      Beneficial owner <Link href={paths.customer(owner.customerId)}>{name}</Link> (
      {owner.prongs.map(enumLabel).join(' and ')}
      {share}) is verified. {status ? <span className="owner-status">Its status: {statusLabel[status]}.</span> : null}
    </span>
  );
}

/**
 * The requirements as one checklist: due (with each error's code and reason), pending, and met (neither listed).
 * A business's list is complete: its check, its formation document, its owners under the CDD rule, then one item per
 * owner (met once that owner is VERIFIED, with the owner's own status), so an item turns Met when its evidence
 * arrives instead of leaving the list.
 */
function Requirements({
  requirements,
  business,
  owners,
}: {
  requirements: Verification['requirements'];
  business: boolean;
  owners: readonly Owner[];
}) {
  const due = new Set(requirements.currentlyDue);
  const pending = new Set(requirements.pendingVerification);
  const stateOf = (name: string): RequirementState => (due.has(name) ? 'due' : pending.has(name) ? 'pending' : 'met');
  const ownerOf = new Map(owners.map((owner) => [`${OWNER_PREFIX}${owner.customerId}`, owner]));
  const names = [...baseRequirements(business), ...(business ? ownerOf.keys() : [])];
  // Anything else the API lists (a requirement this console does not know yet) is shown too, after the rest.
  for (const name of [...requirements.currentlyDue, ...requirements.pendingVerification])
    if (!names.includes(name)) names.push(name);
  return (
    <ul className="checklist" aria-label="Requirements">
      {names.map((name) => {
        const state = stateOf(name);
        const owner = ownerOf.get(name);
        return (
          <li key={name} className={`requirement ${state}`}>
            <span className={`badge ${state}`}>{requirementLabel[state]}</span> <code>{name}</code>
            {owner ? (
              <OwnerRequirement owner={owner} />
            ) : requirementText[name] ? (
              <span className="requirement-text"> {requirementText[name]}</span>
            ) : null}
            {requirements.errors
              .filter((error) => error.requirement === name)
              .map((error) => (
                <span key={error.code + error.reason} className="requirement-error">
                  {' '}
                  <code>{error.code}</code> {error.reason}
                </span>
              ))}
          </li>
        );
      })}
    </ul>
  );
}

function RunCheck({ customerId, business }: { customerId: string; business: boolean }) {
  const [request, result] = useMutation(RequestCheck, { refetchQueries: [CustomerVerification] });
  return (
    <div className="actions">
      <Button
        onPress={() => void request({ variables: { customerId } }).catch(() => undefined)}
        isDisabled={result.loading}
      >
        {business ? 'Run business check' : 'Run identity check'}
      </Button>
      {result.data ? (
        <p role="status" className="done">
          Check requested; its result arrives shortly.
        </p>
      ) : null}
      <ProblemMessage error={result.error} />
    </div>
  );
}

const decisionLabel = (field: string) => (field === 'reason' ? 'Reason' : field === 'outcome' ? 'Outcome' : undefined);

/** A person's decision, VERIFIED or REJECTED, with a required reason, after a confirmation. */
function DecisionForm({ customerId }: { customerId: string }) {
  const [outcome, setOutcome] = useState<VerificationDecisionOutcome>('VERIFIED');
  const [reason, setReason] = useState('');
  const [decide, result] = useMutation(DecideVerification, { refetchQueries: [CustomerVerification] });
  const [done, setDone] = useState<string | null>(null);
  const trimmed = reason.trim();
  return (
    <section aria-labelledby="decision-form-heading">
      <h3 id="decision-form-heading">Decide</h3>
      <FormProblems error={result.error} labels={decisionLabel}>
        <form className="stacked-form" onSubmit={(event) => event.preventDefault()}>
          <fieldset className="field">
            <legend>Outcome</legend>
            {(['VERIFIED', 'REJECTED'] as const).map((value) => (
              <label key={value} className="radio">
                <input
                  type="radio"
                  name="decision-outcome"
                  value={value}
                  checked={outcome === value}
                  onChange={() => setOutcome(value)}
                />{' '}
                {statusLabel[value]}
              </label>
            ))}
          </fieldset>
          <ProblemTextField
            field="reason"
            label="Reason"
            value={reason}
            onChange={setReason}
            isRequired
            maxLength={500}
          />
          <ConfirmDialog
            trigger="Record decision…"
            title={`Record ${statusLabel[outcome]}?`}
            confirmLabel={`Record ${statusLabel[outcome]}`}
            tone={outcome === 'REJECTED' ? 'danger' : 'primary'}
            isDisabled={trimmed === ''}
            busy={result.loading}
            error={result.error}
            onOpen={() => {
              result.reset();
              setDone(null);
            }}
            onConfirm={() =>
              decide({ variables: { customerId, input: { outcome, reason: trimmed } } }).then(
                (answer) => {
                  if (answer.data) {
                    setDone(`Recorded: ${statusLabel[answer.data.decideVerification.status]}.`);
                    setReason('');
                  }
                  return Boolean(answer.data);
                },
                () => false,
              )
            }
          >
            <p>
              The customer&apos;s verification becomes {statusLabel[outcome]}, with the reason &ldquo;{trimmed}&rdquo;,
              recorded under your name.
            </p>
          </ConfirmDialog>
          {trimmed === '' ? <p className="muted">Enter a reason to record a decision.</p> : null}
        </form>
      </FormProblems>
      {done ? (
        <p role="status" className="done">
          {done}
        </p>
      ) : null}
    </section>
  );
}

const reasonCodes: VerificationDocumentReasonCode[] = ['EXPIRED', 'ILLEGIBLE', 'NAME_MISMATCH', 'OTHER'];

/** Approve or reject (with a reason code) one RECEIVED document; the API refuses its uploader: shown. */
function ReviewActions({ customerId, document }: { customerId: string; document: Document }) {
  const [reasonCode, setReasonCode] = useState<VerificationDocumentReasonCode>('ILLEGIBLE');
  const [review, result] = useMutation(ReviewDocument, { refetchQueries: [CustomerVerification] });
  const send = (status: VerificationDocumentReviewStatus) =>
    void review({
      variables: {
        customerId,
        documentId: document.documentId,
        input: status === 'REJECTED' ? { status, reasonCode } : { status },
      },
    }).catch(() => undefined);
  const name = `${document.type} of ${instant(document.uploadedAt)}`;
  return (
    <div className="review-actions" role="group" aria-label={`Review ${name}`}>
      <Button className="react-aria-Button small" onPress={() => send('APPROVED')} isDisabled={result.loading}>
        Approve
      </Button>
      <Select
        aria-label={`Reason to reject ${name}`}
        selectedKey={reasonCode}
        onSelectionChange={(key) => setReasonCode(key as VerificationDocumentReasonCode)}
      >
        <Button className="react-aria-Button small secondary">
          <SelectValue />
        </Button>
        <Popover>
          <ListBox>
            {reasonCodes.map((code) => (
              <ListBoxItem key={code} id={code}>
                {code}
              </ListBoxItem>
            ))}
          </ListBox>
        </Popover>
      </Select>
      <Button className="react-aria-Button small danger" onPress={() => send('REJECTED')} isDisabled={result.loading}>
        Reject
      </Button>
      <ProblemMessage error={result.error} />
    </div>
  );
}

const MAX_BYTES = 10 * 1024 * 1024;
const MEDIA_TYPES = ['application/pdf', 'image/png', 'image/jpeg'];
const DOCUMENT_TYPES = ['ID_DOCUMENT', 'PROOF_OF_ADDRESS', 'CERTIFICATE_OF_FORMATION', 'EIN_LETTER', 'OTHER'];

/**
 * A document's upload with the session's token in the Authorization header, reporting the share of the file sent
 * (0 to 1) as it goes: XMLHttpRequest, because fetch reports no upload progress. A refusal becomes a RestProblem.
 */
function uploadWithProgress(
  path: string,
  file: File,
  onProgress: (share: number) => void,
): Promise<{ type: string; sizeBytes: number }> {
  return new Promise((resolve, reject) => {
    const session = readSession();
    if (!session) return reject(new RestProblem('UNAUTHENTICATED', 'Sign in again.'));
    const request = new XMLHttpRequest();
    request.open('POST', path);
    request.setRequestHeader('authorization', `Bearer ${session.token}`);
    request.setRequestHeader('content-type', file.type);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let envelope: { data?: { type: string; sizeBytes: number }; error?: { code?: unknown; message?: unknown } } = {};
      try {
        envelope = JSON.parse(request.responseText) as typeof envelope;
      } catch {
        // not an envelope: the status says it
      }
      if (request.status >= 200 && request.status < 300 && envelope.data) return resolve(envelope.data);
      const problem = envelope.error;
      reject(
        new RestProblem(
          typeof problem?.code === 'string' ? problem.code : `HTTP_${request.status}`,
          typeof problem?.message === 'string' ? problem.message : request.statusText,
        ),
      );
    };
    request.onerror = () => reject(new RestProblem('NETWORK_ERROR', 'The upload did not reach the service.'));
    request.send(file);
  });
}

/** A REST call with the session's token in the Authorization header (never in a URL); a refusal becomes a RestProblem. */
async function restFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const session = readSession();
  if (!session) throw new RestProblem('UNAUTHENTICATED', 'Sign in again.');
  const response = await fetch(path, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${session.token}` },
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
  return response;
}

const documentsPath = (environment: string, customerId: string) =>
  `/${encodeURIComponent(environment)}/customer/${encodeURIComponent(customerId)}/document`;

/**
 * An upload (REST only: GraphQL carries no file): a type and a PDF, PNG or JPEG of at most 10 MiB, checked here
 * before anything is sent (the API checks again, by the content's first bytes).
 */
function UploadDocument({ customerId }: { customerId: string }) {
  const { environment } = useViewer();
  const client = useApolloClient();
  const [type, setType] = useState('ID_DOCUMENT');
  const [file, setFile] = useState<File | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(0);
  const [problem, setProblem] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    setProblem(null);
    if (!file) return setFieldError('Choose a file.');
    if (!MEDIA_TYPES.includes(file.type)) return setFieldError('Choose a PDF, PNG or JPEG file.');
    if (file.size > MAX_BYTES) return setFieldError('Choose a file of at most 10 MiB.');
    setFieldError(null);
    setBusy(true);
    setSent(0);
    uploadWithProgress(`${documentsPath(environment, customerId)}?type=${encodeURIComponent(type)}`, file, setSent)
      .then(async (answer) => {
        setDone(`Uploaded: ${answer.type}, ${fileSize(answer.sizeBytes)}.`);
        await client.refetchQueries({ include: [CustomerVerification] });
      })
      .catch((reason: unknown) => setProblem(reason))
      .finally(() => setBusy(false));
  };
  const errorId = `upload-file-error-${customerId}`;
  return (
    <section aria-labelledby="upload-heading">
      <h3 id="upload-heading">Upload a document</h3>
      <form className="stacked-form" onSubmit={submit} noValidate>
        <label className="field">
          Document type
          <select value={type} onChange={(event) => setType(event.target.value)}>
            {DOCUMENT_TYPES.map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        </label>
        <label className="field">
          File (PDF, PNG or JPEG, at most 10 MiB)
          <input
            type="file"
            accept="application/pdf,image/png,image/jpeg"
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? errorId : undefined}
            onChange={(event) => {
              setFieldError(null);
              setFile(event.target.files?.[0] ?? null);
            }}
          />
        </label>
        {fieldError ? (
          <p id={errorId} className="field-problem" role="alert">
            {fieldError}
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" className="react-aria-Button" disabled={busy}>
            Upload
          </button>
        </div>
        {busy ? (
          <p className="loading">
            <label>
              Uploading {file?.name}: {Math.round(sent * 100)} %{' '}
              <progress value={sent} max={1} aria-label="Upload progress" />
            </label>
          </p>
        ) : null}
        {done ? (
          <p role="status" className="done">
            {done}
          </p>
        ) : null}
        <ProblemMessage error={problem} />
      </form>
    </section>
  );
}

/**
 * A document's content (`documents:read`, audited at every read), fetched with the token and shown in the page: an
 * image as a data: URL (the console's policy allows images from data:), a PDF in a frame from a blob: URL typed
 * application/pdf whatever was stored (the policy allows frames from blob: only), so the browser's PDF viewer shows
 * it and nothing in it runs as a page of the console. **Download** saves it instead.
 */
function DocumentContent({ customerId, document }: { customerId: string; document: Document }) {
  const { environment } = useViewer();
  const [image, setImage] = useState<string | null>(null);
  const [pdf, setPdf] = useState<string | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const path = `${documentsPath(environment, customerId)}/${encodeURIComponent(document.documentId)}/content`;
  const label = `${document.type} of ${instant(document.uploadedAt)}`;
  const isImage = document.mediaType.startsWith('image/');
  useEffect(() => (pdf ? () => URL.revokeObjectURL(pdf) : undefined), [pdf]);
  const show = () => {
    setProblem(null);
    restFetch(path, { headers: { accept: document.mediaType } })
      .then((response) => response.blob())
      .then(async (blob) => {
        if (!isImage) return setPdf(URL.createObjectURL(new Blob([blob], { type: 'application/pdf' })));
        setImage(
          await new Promise<string>((resolve, reject) => {
            const reader = new FileReader();
            reader.onload = () => resolve(String(reader.result));
            reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
            reader.readAsDataURL(blob);
          }),
        );
      })
      .catch((reason: unknown) => setProblem(reason));
  };
  const download = () => {
    setProblem(null);
    const extension = isImage ? document.mediaType.slice('image/'.length).replace('jpeg', 'jpg') : 'pdf';
    downloadFile(path, document.mediaType, `${document.type.toLowerCase()}.${extension}`).catch((reason: unknown) =>
      setProblem(reason),
    );
  };
  return (
    <div className="document-content">
      {image ? <img src={image} alt={`Content of ${label}`} className="document-image" /> : null}
      {pdf ? <iframe src={pdf} title={`Content of ${label}`} className="document-pdf" /> : null}
      <div className="actions">
        {image || pdf ? null : (
          <Button className="react-aria-Button small secondary" onPress={show} aria-label={`Show ${label}`}>
            Show
          </Button>
        )}
        <Button className="react-aria-Button small secondary" onPress={download} aria-label={`Download ${label}`}>
          Download
        </Button>
      </div>
      <ProblemMessage error={problem} />
    </div>
  );
}

/**
 * A customer's verification (docs/verification.md): its status, what is due, the checks, the documents and the
 * decision; with `verification:write` a check request (a business's check for a business), with `verification:decide`
 * a decision and document reviews. A business's checklist names its owners with their own statuses.
 * Read again every second while a check runs, so its result shows when it arrives.
 */
export function VerificationPanel({ customerId, business }: { customerId: string; business: boolean }) {
  const canWrite = useCan('verification:write');
  const canDecide = useCan('verification:decide');
  const canReadContent = useCan('documents:read');
  const { data, error, startPolling, stopPolling } = useQuery(CustomerVerification, { variables: { customerId } });
  const verification = data?.customer?.verification;
  const running =
    verification?.status === 'PENDING' || verification?.checks.some((check) => check.status === 'PENDING');
  useEffect(() => {
    if (running) startPolling(1000);
    else stopPolling();
  }, [running, startPolling, stopPolling]);
  return (
    <section aria-labelledby="verification-heading">
      <h2 id="verification-heading">Verification</h2>
      <ProblemMessage error={error} />
      {verification ? (
        <>
          <p>
            Status:{' '}
            <span
              className={`badge verification-${verification.status.toLowerCase()}`}
              data-testid="verification-status"
            >
              {statusLabel[verification.status]}
            </span>
          </p>
          <h3>Requirements</h3>
          <Requirements
            requirements={verification.requirements}
            business={business}
            owners={data?.customer?.beneficialOwners ?? []}
          />
          {canWrite ? <RunCheck customerId={customerId} business={business} /> : null}
          <h3>Checks</h3>
          {verification.checks.length === 0 ? (
            <p className="empty">No checks.</p>
          ) : (
            <div className="table-scroll">
              <table>
                <caption>Checks, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Kind</th>
                    <th scope="col">Provider</th>
                    <th scope="col">Status</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Reason codes</th>
                    <th scope="col">Requested</th>
                    <th scope="col">Completed</th>
                  </tr>
                </thead>
                <tbody>
                  {verification.checks.map((check) => (
                    <tr key={check.checkId}>
                      <td>{check.kind}</td>
                      <td>{check.provider}</td>
                      <td>{check.status}</td>
                      <td>{check.outcome ?? ''}</td>
                      <td>{check.reasonCodes.join(', ')}</td>
                      <td>{instant(check.requestedAt)}</td>
                      <td>{instant(check.completedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h3>Documents</h3>
          {verification.documents.length === 0 ? (
            <p className="empty">No documents.</p>
          ) : (
            <div className="table-scroll">
              <table>
                <caption>Documents, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Type</th>
                    <th scope="col">Status</th>
                    <th scope="col">Reason</th>
                    <th scope="col">Size</th>
                    <th scope="col">Uploaded</th>
                    <th scope="col">Reviewed</th>
                    {canReadContent ? <th scope="col">Content</th> : null}
                    {canDecide ? <th scope="col">Review</th> : null}
                  </tr>
                </thead>
                <tbody>
                  {verification.documents.map((document) => (
                    <tr key={document.documentId}>
                      <td>{document.type}</td>
                      <td>{document.status}</td>
                      <td>{document.reasonCode ?? ''}</td>
                      <td>{fileSize(document.sizeBytes)}</td>
                      <td>
                        {instant(document.uploadedAt)} by {document.uploadedBy}
                      </td>
                      <td>
                        {document.reviewedAt ? `${instant(document.reviewedAt)} by ${document.reviewedBy ?? ''}` : ''}
                      </td>
                      {canReadContent ? (
                        <td>
                          <DocumentContent customerId={customerId} document={document} />
                        </td>
                      ) : null}
                      {canDecide ? (
                        <td>
                          {document.status === 'RECEIVED' ? (
                            <ReviewActions customerId={customerId} document={document} />
                          ) : null}
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {canWrite ? <UploadDocument customerId={customerId} /> : null}
          <h3>Decision</h3>
          {verification.decision ? (
            <dl className="facts" aria-label="Decision">
              <dt>Outcome</dt>
              <dd>{verification.decision.outcome}</dd>
              <dt>Reason</dt>
              <dd>{verification.decision.reason}</dd>
              <dt>By</dt>
              <dd>{verification.decision.decidedBy}</dd>
              <dt>When</dt>
              <dd>{instant(verification.decision.decidedAt)}</dd>
            </dl>
          ) : (
            <p className="empty">No decision yet.</p>
          )}
          {canDecide ? <DecisionForm customerId={customerId} /> : null}
        </>
      ) : null}
    </section>
  );
}
