import { useEffect, useRef } from 'react';
import { paths, useRoute } from '../router';
import { useViewer } from '../viewer';
import { RecordSearch } from './RecordSearch';

/** Typing somewhere that takes text: `/` is a character there, not the shortcut. */
const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * The one search of the header: customers by any name part or a full name, an email, a phone number or an
 * external id; customers and accounts by a pasted id or an external id; accounts by an account number's last four. `/` focuses it from anywhere else.
 */
export function GlobalSearch() {
  const viewer = useViewer();
  const { navigate } = useRoute();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      event.preventDefault();
      input.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  if (!viewer.scopes.has('customers:read') && !viewer.scopes.has('accounts:read')) return null;
  return (
    <div role="search" aria-label="Customers and accounts" className="global-search">
      <RecordSearch
        label="Search customers and accounts"
        kinds={['customer', 'account']}
        inputRef={input}
        placeholder="Search: a name, an email, a phone, an id, the last four  ( / )"
        onPick={(result) => navigate(result.kind === 'customer' ? paths.customer(result.id) : paths.account(result.id))}
      />
    </div>
  );
}
