import * as RadixDialog from '@radix-ui/react-dialog';
import { useRef, type ReactNode } from 'react';

/**
 * A modal dialog (Radix Dialog): named by its title, the focus kept inside while it is open, Escape or Close closing
 * it, and the focus back where it was before it opened (the button that opened it, or the frame a key was pressed
 * on). For a screen that shows it while `open` is true and hears `onClose`.
 */
export function Dialog({
  title,
  open,
  onClose,
  children,
  className,
  description,
  toolbar,
}: {
  title: ReactNode;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  /** One line under the title that screen readers read with it. */
  description?: ReactNode;
  /** Controls in the dialog's head, between its title and its Close button. */
  toolbar?: ReactNode;
}) {
  // Radix gives the focus back to its own trigger; these dialogs open from any button or key, so the wrapper keeps
  // what had the focus when the dialog opened and gives it back.
  const before = useRef<HTMLElement | null>(null);
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="ui-overlay" />
        <RadixDialog.Content
          className={className ? `ui-dialog ${className}` : 'ui-dialog'}
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={() => {
            before.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            const back = before.current;
            if (!back?.isConnected) return;
            event.preventDefault();
            back.focus();
          }}
        >
          <header className="ui-dialog-head">
            <RadixDialog.Title>{title}</RadixDialog.Title>
            {toolbar}
            <RadixDialog.Close className="button-small">Close</RadixDialog.Close>
          </header>
          {description ? <RadixDialog.Description className="muted">{description}</RadixDialog.Description> : null}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
