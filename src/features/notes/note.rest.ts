import type { Caller } from '../../domain/caller.js';
import { customerNotFound, validationFailed } from '../../domain/errors.js';
import type { PageQuery } from '../../domain/pagination.js';
import {
  accountNotFoundFailure,
  failure,
  limitValidationFailure,
  validationFailureOf,
} from '../../rest/operations/failures.js';
import { parseQuery, type QueryString } from '../../rest/operations/query.js';
import type { RestRoute } from '../../rest/operations/route.js';
import {
  accountNoteDataSchema,
  accountNotePageDataSchema,
  customerNoteDataSchema,
  customerNotePageDataSchema,
} from './note.presenter.js';
import { addNoteSchema, NOTE_LIMITS, notePageQuerySchema } from './note.schemas.js';

/** `GET …/note`: the query string as NoteService.list's page. */
export function listNotesQuery(caller: Caller, query: QueryString): PageQuery {
  const { limit, after } = parseQuery(caller, 'notes:read', notePageQuerySchema, query);
  return { first: limit, after };
}

const customerNotFoundFailure = failure(
  'CUSTOMER_NOT_FOUND',
  'No customer with this id in this environment (an id that is not a UUID cannot name one).',
  customerNotFound(),
);
const textFailure = failure(
  'VALIDATION_FAILED_text',
  `\`text\` is missing, empty after trimming, over ${NOTE_LIMITS.textLength} characters, or holds a control character other than a line feed or a tab; nothing is written.`,
  validationFailureOf(addNoteSchema, { text: ' ' }),
);
const cursorFailure = failure(
  'VALIDATION_FAILED_after',
  '`after` is not the noteId of a note of this record.',
  validationFailed([
    {
      field: 'after',
      code: 'INVALID_VALUE',
      message: "Must be a noteId from a previous page of this customer's notes.",
    },
  ]),
);

const ADD_DESCRIPTION =
  `Not in the contract. \`text\`: 1 to ${NOTE_LIMITS.textLength} characters after trimming (kept trimmed), line feeds and tabs allowed, no other control character. ` +
  "The author is the token's principal and display name. Append-only: a note never changes and there is no way to delete one; " +
  'it stays when its record is deleted. Audited (`{kind}.note.add`, the note id only, never the text); no event is emitted.';
const LIST_DESCRIPTION =
  'Not in the contract. Newest first (then by noteId), a page at a time (`limit` 1–100, default 20; `after`: the `nextAfter` of the previous page).';

/** Case notes on customers (tagged Customers) and accounts (tagged Accounts), docs/adr/0105. */
export const NOTES_ROUTES = [
  {
    operationId: 'addCustomerNote',
    method: 'POST',
    path: '/:environment/customer/:customerId/note',
    family: 'customer',
    tag: 'Customers',
    summary: 'Add a case note to a customer',
    description: ADD_DESCRIPTION.replace('{kind}', 'customer'),
    scope: 'notes:write',
    requestBody: {
      schema: addNoteSchema,
      component: 'AddNoteRequest',
      example: { text: 'Called about the card replacement; asked to call back on Monday.' },
    },
    success: { status: 201, description: 'Added: the note.', data: customerNoteDataSchema, component: 'CustomerNote' },
    failures: [textFailure, customerNotFoundFailure],
  },
  {
    operationId: 'listCustomerNotes',
    method: 'GET',
    path: '/:environment/customer/:customerId/note',
    family: 'customer',
    tag: 'Customers',
    summary: "List a customer's case notes",
    description: LIST_DESCRIPTION,
    scope: 'notes:read',
    query: { schema: notePageQuerySchema, example: { limit: '20' } },
    success: {
      status: 200,
      description: 'A page of notes.',
      data: customerNotePageDataSchema,
      component: 'CustomerNotePage',
    },
    failures: [limitValidationFailure(notePageQuerySchema), cursorFailure, customerNotFoundFailure],
  },
  {
    operationId: 'addAccountNote',
    method: 'POST',
    path: '/:environment/account/:accountId/note',
    family: 'account',
    tag: 'Accounts',
    summary: 'Add a case note to an account',
    description: ADD_DESCRIPTION.replace('{kind}', 'account'),
    scope: 'notes:write',
    requestBody: {
      schema: addNoteSchema,
      component: 'AddNoteRequest',
      example: { text: 'Customer disputes the fee of 12/01; refund requested.' },
    },
    success: { status: 201, description: 'Added: the note.', data: accountNoteDataSchema, component: 'AccountNote' },
    failures: [textFailure, accountNotFoundFailure],
  },
  {
    operationId: 'listAccountNotes',
    method: 'GET',
    path: '/:environment/account/:accountId/note',
    family: 'account',
    tag: 'Accounts',
    summary: "List an account's case notes",
    description: LIST_DESCRIPTION,
    scope: 'notes:read',
    query: { schema: notePageQuerySchema, example: { limit: '20' } },
    success: {
      status: 200,
      description: 'A page of notes.',
      data: accountNotePageDataSchema,
      component: 'AccountNotePage',
    },
    failures: [limitValidationFailure(notePageQuerySchema), cursorFailure, accountNotFoundFailure],
  },
] as const satisfies readonly RestRoute[];
