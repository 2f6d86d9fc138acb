import { useMutation, useQuery } from '@apollo/client/react';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Input, Label, TextField } from 'react-aria-components';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { DataTable } from '../components/DataTable';
import { ProblemMessage } from '../components/ProblemMessage';
import { instant } from '../format';
import { graphql } from '../gql';
import type { ClockPageQuery } from '../gql/graphql';
import { useViewer } from '../viewer';

const ClockPageQuery = graphql(`
  query ClockPage {
    clock {
      now
      businessDate
      timeZone
      adjustable
    }
    endOfDay {
      businessDate
      status
      attempts
      startedAt
      finishedAt
      steps {
        step
        status
        records
        attempts
        error
      }
    }
  }
`);

const AdvanceClock = graphql(`
  mutation AdvanceClock($days: Int!) {
    advanceClock(days: $days) {
      from
      to
      businessDaysRun
    }
  }
`);

/** The API's bound: at most three years a call (CLOCK_ADVANCE_TOO_FAR past it). */
const MAX_DAYS = 1096;
const DAY_MS = 24 * 60 * 60 * 1000;

type Run = ClockPageQuery['endOfDay'][number];
const column = createColumnHelper<Run>();
const columns = [
  column.accessor('businessDate', { header: 'Business date' }),
  column.accessor('status', { header: 'Status' }),
  column.accessor('steps', {
    header: 'Steps (records changed)',
    cell: (info) =>
      info
        .getValue()
        .map((step) => `${step.step}: ${step.records}${step.error ? ` (failed: ${step.error})` : ''}`)
        .join('; '),
  }),
  column.accessor('attempts', { header: 'Attempts' }),
  column.accessor('finishedAt', { header: 'Finished (real time)', cell: (info) => instant(info.getValue()) }),
];

/** A whole number of days within the API's bound, or the reason it is not one (shown at the field). */
function daysProblem(text: string): string | null {
  if (!/^\d+$/.test(text.trim())) return 'Enter a whole number of days, e.g. 30.';
  const days = Number(text);
  if (days < 1 || days > MAX_DAYS) return `Enter between 1 and ${MAX_DAYS} days (at most three years a move).`;
  return null;
}

/**
 * The environment's clock and its end of day: the time every rule reads, the business date, and each date's
 * run with its steps. In an environment whose clock may move (a sandbox), a token with `clock:write` moves it
 * forward, after a confirmation that says how far and how many ends of day will run.
 */
export function ClockPage() {
  const viewer = useViewer();
  const { data, error, refetch } = useQuery(ClockPageQuery, { fetchPolicy: 'cache-and-network' });
  const [advance, advancing] = useMutation(AdvanceClock);
  const [days, setDays] = useState('30');
  const [shown, setShown] = useState(false);
  const [last, setLast] = useState<{ from: string; to: string; businessDaysRun: number } | null>(null);
  const clock = data?.clock;
  const problem = shown ? daysProblem(days) : null;
  const canAdvance = clock?.adjustable === true && viewer.scopes.has('clock:write');
  const target = clock && !daysProblem(days) ? new Date(Date.parse(clock.now) + Number(days) * DAY_MS) : null;
  const runs = [...(data?.endOfDay ?? [])].reverse();
  return (
    <>
      <h1>Clock and end of day</h1>
      <ProblemMessage error={error} />
      {clock ? (
        <section aria-labelledby="clock-heading">
          <h2 id="clock-heading">{viewer.environment}&apos;s clock</h2>
          <dl className="facts">
            <dt>Now</dt>
            <dd>{instant(clock.now)}</dd>
            <dt>Business date</dt>
            <dd>{clock.businessDate}</dd>
            <dt>Time zone</dt>
            <dd>{clock.timeZone}</dd>
            <dt>Can be moved forward</dt>
            <dd>{clock.adjustable ? 'Yes (a sandbox: time travel)' : 'No: it follows the real time'}</dd>
          </dl>
        </section>
      ) : null}
      {clock && canAdvance ? (
        <section aria-labelledby="advance-heading">
          <h2 id="advance-heading">Advance the clock</h2>
          <p>
            Moves this environment&apos;s time forward and runs every end of day in between, in order: holds expire,
            flags lift, as if the days had passed. Time never moves back.
          </p>
          <TextField
            className="field"
            value={days}
            onChange={(value) => {
              setDays(value);
              setShown(true);
            }}
            isInvalid={problem !== null}
            inputMode="numeric"
          >
            <Label>Days to move forward</Label>
            <Input id="advance-days" aria-describedby={problem ? 'advance-days-error' : undefined} />
          </TextField>
          {problem ? (
            <p id="advance-days-error" className="field-error">
              {problem}
            </p>
          ) : null}
          <ConfirmDialog
            trigger="Advance…"
            tone="primary"
            title={`Move ${viewer.environment}'s clock forward?`}
            confirmLabel={`Advance ${days} days`}
            isDisabled={daysProblem(days) !== null}
            busy={advancing.loading}
            error={advancing.error}
            onOpen={() => advancing.reset()}
            onConfirm={async () => {
              const answer = await advance({ variables: { days: Number(days) } }).catch(() => null);
              if (!answer?.data) return false;
              setLast(answer.data.advanceClock);
              await refetch();
              return true;
            }}
          >
            <p>
              From {instant(clock.now)} to {target ? instant(target.toISOString()) : '…'}: every end of day in between
              runs before the answer. This cannot be undone.
            </p>
          </ConfirmDialog>
          {last ? (
            <p role="status">
              Moved from {instant(last.from)} to {instant(last.to)}; {last.businessDaysRun} business{' '}
              {last.businessDaysRun === 1 ? 'day' : 'days'} ended.
            </p>
          ) : null}
        </section>
      ) : null}
      {data ? (
        <DataTable
          caption="End of day, the last 30 business dates, newest first"
          columns={columns}
          data={runs}
          empty="No end of day has run in the last 30 business dates."
        />
      ) : null}
    </>
  );
}
