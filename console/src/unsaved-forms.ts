import { useEffect } from 'react';

/**
 * Half-filled forms are not lost without a warning. A form counts as unsaved from the first thing typed or chosen
 * in it until it is submitted or reset, while it is on the page (filters and forms that only read do not count); leaving the page (a link of the console, a
 * reload, closing the tab) then asks first. Every form is watched the same way, so a new form needs nothing.
 */
const unsaved = new WeakSet<HTMLFormElement>();
const watched = new Set<HTMLFormElement>();

export const UNSAVED_QUESTION = 'This page has changes you have not saved. Leave it and lose them?';

/** Whether a form on the page has changes not submitted. */
export function hasUnsavedForms(): boolean {
  for (const form of watched) {
    if (!form.isConnected) watched.delete(form);
    else if (unsaved.has(form)) return true;
  }
  return false;
}

/** Asks before a navigation that would drop unsaved changes: true to go on. */
export function mayLeavePage(): boolean {
  if (!hasUnsavedForms()) return true;
  if (!window.confirm(UNSAVED_QUESTION)) return false;
  watched.clear();
  return true;
}

/**
 * The form a change belongs to, when it is a form that writes: filters (`.filters`) and forms that only read
 * (`data-reads`: a statement's period, a search) keep nothing worth a warning.
 */
const formOf = (target: EventTarget | null) => {
  const form = target instanceof Element ? target.closest('form') : null;
  return form && !form.matches('.filters, [data-reads]') ? form : null;
};

/** Watches the forms of the signed-in pages (not the sign-in form) while mounted. */
export function useUnsavedFormsGuard(): void {
  useEffect(() => {
    const changed = (event: Event) => {
      const form = formOf(event.target);
      if (!form) return;
      unsaved.add(form);
      watched.add(form);
    };
    const saved = (event: Event) => {
      const form = event.target instanceof HTMLFormElement ? event.target : null;
      if (form) unsaved.delete(form);
    };
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!hasUnsavedForms()) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = UNSAVED_QUESTION;
    };
    document.addEventListener('input', changed, true);
    document.addEventListener('change', changed, true);
    document.addEventListener('submit', saved, true);
    document.addEventListener('reset', saved, true);
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      document.removeEventListener('input', changed, true);
      document.removeEventListener('change', changed, true);
      document.removeEventListener('submit', saved, true);
      document.removeEventListener('reset', saved, true);
      window.removeEventListener('beforeunload', beforeUnload);
      watched.clear();
    };
  }, []);
}
