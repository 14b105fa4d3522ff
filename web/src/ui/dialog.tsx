import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

/**
 * A modal dialog (Radix Dialog): named by its title, the focus kept inside while it is open, Escape or Close closing
 * it, and the focus back on what opened it. For a screen that shows it while `open` is true and hears `onClose`.
 */
export function Dialog({
  title,
  open,
  onClose,
  children,
  className,
  description,
}: {
  title: ReactNode;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  /** One line under the title that screen readers read with it. */
  description?: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="ui-overlay" />
        <RadixDialog.Content
          className={className ? `ui-dialog ${className}` : 'ui-dialog'}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <header className="ui-dialog-head">
            <RadixDialog.Title>{title}</RadixDialog.Title>
            <RadixDialog.Close className="button-small">Close</RadixDialog.Close>
          </header>
          {description ? <RadixDialog.Description className="muted">{description}</RadixDialog.Description> : null}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
