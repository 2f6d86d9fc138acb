import { useQuery } from '@apollo/client/react';
import { Link } from 'react-aria-components';
import { Pager } from '../components/Pager';
import { ProblemMessage } from '../components/ProblemMessage';
import { useCursorStack } from '../components/usePages';
import { customerKind, customerName } from '../format';
import { graphql } from '../gql';
import { paths } from '../router';

const ReviewQueue = graphql(`
  query ReviewQueue($after: String) {
    customers(first: 20, after: $after, filter: { verificationStatus: NEEDS_REVIEW }) {
      nodes {
        id
        customerId
        customerType
        business {
          legalName
        }
        firstName
        middleName
        lastName
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

/**
 * The review queue (docs/verification.md): the customers whose verification is NEEDS_REVIEW, in id order (the
 * oldest first), 20 a page, each a link to its page, where the verification panel takes the decision. Read again on
 * every visit: a decision elsewhere takes a customer off the queue.
 */
export function ReviewsPage() {
  const pages = useCursorStack<string>();
  const queue = useQuery(ReviewQueue, { variables: { after: pages.current }, fetchPolicy: 'network-only' });
  const customers = queue.data?.customers.nodes ?? [];
  return (
    <>
      <h1>Verification reviews</h1>
      <p className="muted">Customers whose verification needs a person to look, oldest first.</p>
      <ProblemMessage error={queue.error} />
      {queue.data ? (
        customers.length === 0 ? (
          <p className="empty">No customer needs a review.</p>
        ) : (
          <ul className="results" aria-label="Customers awaiting review">
            {customers.map((customer) => (
              <li key={customer.customerId}>
                <span className={`kind kind-${customer.customerType.toLowerCase()}`}>
                  {customerKind(customer.customerType)}
                </span>{' '}
                <Link href={paths.customer(customer.customerId)}>{customerName(customer)}</Link>{' '}
                <code className="muted">{customer.customerId}</code>
              </li>
            ))}
          </ul>
        )
      ) : null}
      <Pager
        label="Review queue pages"
        hasPrevious={pages.hasPrevious}
        hasNext={queue.data?.customers.pageInfo.hasNextPage ?? false}
        onPrevious={pages.previous}
        onNext={() => pages.next(queue.data!.customers.pageInfo.endCursor!)}
      />
    </>
  );
}
