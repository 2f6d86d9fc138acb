import { useEffect } from 'react';

/**
 * Once a field shows its error, it is checked again as the person types, and the error goes as soon as the text is
 * right. React Aria's native validation re-checks a shown error only on the field's `change` event, which a text
 * field fires when it loses focus: the fixed error stayed on screen until the person pressed the form's button,
 * vanished on that press, moved the button up under the pointer, and the press was lost. Here an `input` in a
 * field marked invalid is followed by the `change` React Aria listens to; a field not showing an error is left to
 * be checked when it is left or submitted, so nobody is told off while still typing.
 */
export function useLiveRevalidation(): void {
  useEffect(() => {
    const typed = (event: Event) => {
      const field = event.target;
      if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return;
      if (field.getAttribute('aria-invalid') !== 'true') return;
      // After the typed value is handled, as the browser orders a change after its input.
      queueMicrotask(() => field.dispatchEvent(new Event('change', { bubbles: true })));
    };
    document.addEventListener('input', typed, true);
    return () => document.removeEventListener('input', typed, true);
  }, []);
}
