import { type ReactNode, useRef, useState } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { ProblemMessage } from './ProblemMessage';

/**
 * A button that opens a modal confirmation (an `alertdialog`, focus kept inside, Escape cancels). The action
 * runs once per press of the confirming button, never twice at once; a refusal is shown inside the dialog
 * with its code, and the dialog stays open so the operator reads it.
 */
export function ConfirmDialog({
  trigger,
  title,
  children,
  confirmLabel,
  onConfirm,
  busy,
  error,
  onOpen,
  tone = 'danger',
  triggerClassName,
  isDisabled,
  dismissLabel = 'Cancel',
}: {
  trigger: string;
  /** `danger` for what cannot be undone or takes something away; `primary` for an ordinary consequence (posting a hold). */
  tone?: 'danger' | 'primary';
  /** Extra classes of the trigger (`small` in a table row). */
  triggerClassName?: string;
  isDisabled?: boolean;
  /** The button that closes the dialog doing nothing ("Keep the number" where the action itself is a cancellation). */
  dismissLabel?: string;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Answers true when the action is done (the dialog closes). */
  onConfirm(): Promise<boolean>;
  busy: boolean;
  error: unknown;
  onOpen?(): void;
}) {
  const [open, setOpen] = useState(false);
  const inFlight = useRef(false);
  const confirm = async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      if (await onConfirm()) setOpen(false);
    } finally {
      inFlight.current = false;
    }
  };
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(next) => {
        if (next) onOpen?.();
        setOpen(next);
      }}
    >
      <Button
        className={['react-aria-Button', tone, triggerClassName].filter(Boolean).join(' ')}
        isDisabled={isDisabled}
      >
        {trigger}
      </Button>
      <ModalOverlay className="modal-overlay" isDismissable={!busy} isKeyboardDismissDisabled={busy}>
        <Modal className="modal">
          <Dialog role="alertdialog" className="dialog">
            <Heading slot="title">{title}</Heading>
            {children}
            <ProblemMessage error={error} />
            <div className="actions">
              <Button className={`react-aria-Button ${tone}`} onPress={() => void confirm()} isDisabled={busy}>
                {confirmLabel}
              </Button>
              <Button slot="close" className="react-aria-Button secondary" isDisabled={busy}>
                {dismissLabel}
              </Button>
            </div>
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
