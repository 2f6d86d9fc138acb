/**
 * What the one search box asks the API for what was typed: the API's own filters (each index-served), chosen by
 * the text's shape, so that a first name, a full name, an email, a phone number, an external id or a pasted id
 * each finds what an agent means. Pure, so the rules are tested without a browser.
 */
export interface SearchPlan {
  /** A pasted customer or account id: read as a node (either kind). */
  id?: string;
  /** One word: a prefix of a first name, a last name or a legal name, or an exact external id. */
  word?: string;
  /** Two or more words: the first a prefix of the first name, the rest of the last name; and the whole as a legal name. */
  fullName?: { firstName: string; lastName: string; legalName: string };
  /** Text with an @: the email, exactly (case-insensitive). */
  email?: string;
  /** Mostly digits: a phone number (compared in E.164 by the API). */
  phoneNumber?: string;
  /** Four digits, maybe after `*`, `…` or `x`: an account number's last four ("my account ending 1234"). */
  accountNumberLast4?: string;
}

/** The shortest text worth a search (one letter finds half the customers). */
export const MIN_SEARCH_LENGTH = 2;
/** The API's limits on a name filter and an external id, so a long paste is not refused as a whole. */
const MAX_PREFIX_LENGTH = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PHONE = /^\+?[\d\s().-]{7,}$/;
const LAST_FOUR = /^(?:[*•.…x]+\s?)?(\d{4})$/i;

export function planSearch(typed: string): SearchPlan | null {
  const text = typed.trim().replace(/\s+/g, ' ');
  if (text.length < MIN_SEARCH_LENGTH) return null;
  if (UUID.test(text)) return { id: text.toLowerCase() };
  if (text.includes('@')) return { email: text };
  if (PHONE.test(text) && (text.match(/\d/g)?.length ?? 0) >= 7) return { phoneNumber: text };
  const lastFour = LAST_FOUR.exec(text)?.[1];
  // Four bare digits may also be an external id: both are asked.
  if (lastFour !== undefined)
    return /^\d{4}$/.test(text) ? { word: text, accountNumberLast4: lastFour } : { accountNumberLast4: lastFour };
  const words = text.slice(0, MAX_PREFIX_LENGTH).split(' ');
  if (words.length === 1) return { word: words[0]! };
  return {
    fullName: { firstName: words[0]!, lastName: words.slice(1).join(' '), legalName: words.join(' ') },
  };
}
