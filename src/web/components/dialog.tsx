import * as RadixDialog from '@radix-ui/react-dialog';
import { useRef } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../lib/cn';
import { Button } from './button';
import { CloseIcon } from './icons';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** A sentence under the title, read out with it. */
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom, right-aligned (stacked on phones). */
  footer?: ReactNode;
  /** 'sm' (448 px) for confirmations, 'md' (560 px) by default, 'lg' (672 px) for previews, 'xl' (896 px) for editors. */
  size?: 'sm' | 'md' | 'lg' | 'xl';
  /** While true the dialog cannot be dismissed (Escape, outside click, close button). */
  busy?: boolean;
  'data-testid'?: string;
}

const widths = { sm: 'max-w-md', md: 'max-w-xl', lg: 'max-w-2xl', xl: 'max-w-4xl' } as const;

/**
 * A modal dialog (Radix): focus is trapped inside and returns to the trigger, Escape and a click on
 * the backdrop close it, the title and description label it. Opened without a Radix trigger (from
 * state), it gives the focus back to whatever had it when it opened, if that is still on the page.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  size = 'md',
  busy = false,
  'data-testid': testId,
}: DialogProps) {
  const { t } = useTranslation();
  const returnFocusTo = useRef<HTMLElement | null>(null);
  const onChange = (next: boolean) => {
    if (!next && busy) return;
    onOpenChange(next);
  };
  return (
    <RadixDialog.Root open={open} onOpenChange={onChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-gray-950/40 data-[state=open]:animate-fade-in" />
        <RadixDialog.Content
          data-testid={testId}
          onOpenAutoFocus={() => {
            returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            const element = returnFocusTo.current;
            returnFocusTo.current = null;
            if (element?.isConnected && element !== document.body) {
              event.preventDefault();
              element.focus();
            }
          }}
          className={cn(
            'fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col',
            'rounded-card border border-gray-200 bg-white shadow-overlay focus:outline-none',
            widths[size],
          )}
        >
          <div className="flex items-start justify-between gap-4 px-6 pt-6">
            <div className="min-w-0">
              <RadixDialog.Title className="text-lg font-semibold tracking-tight text-gray-900">{title}</RadixDialog.Title>
              {description ? (
                <RadixDialog.Description className="mt-1.5 text-sm text-gray-600">{description}</RadixDialog.Description>
              ) : null}
            </div>
            <RadixDialog.Close
              disabled={busy}
              aria-label={t('dashboard.common.close')}
              className="-mt-1 -mr-2 inline-flex size-9 shrink-0 items-center justify-center rounded-control text-gray-500 transition-colors hover:bg-gray-100 hover:text-gray-900 disabled:opacity-50"
            >
              <CloseIcon className="size-4" />
            </RadixDialog.Close>
          </div>
          {children ? <div className="min-h-0 overflow-y-auto px-6 pt-4 text-sm text-gray-700">{children}</div> : null}
          {footer ? (
            <div className="flex flex-col-reverse gap-2 px-6 pt-6 pb-6 sm:flex-row sm:justify-end">{footer}</div>
          ) : (
            <div className="pb-6" />
          )}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  /** Extra content between the description and the buttons (the details being confirmed). */
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void;
  /** The confirmed work is running: the confirm button spins and nothing can be pressed twice. */
  pending?: boolean;
  /** 'danger' for destructive actions. */
  tone?: 'primary' | 'danger';
  'data-testid'?: string;
  /** Test ids of the two buttons (default `confirm-dialog-confirm` and `confirm-dialog-cancel`). */
  buttonTestIds?: { confirm: string; cancel: string };
}

/**
 * Asks before an action. Test ids: the dialog (given), its buttons `confirm-dialog-confirm` and
 * `confirm-dialog-cancel` unless `buttonTestIds` names others.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  pending = false,
  tone = 'primary',
  'data-testid': testId,
  buttonTestIds = { confirm: 'confirm-dialog-confirm', cancel: 'confirm-dialog-cancel' },
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      size="sm"
      busy={pending}
      data-testid={testId}
      footer={
        <>
          <Button
            variant="secondary"
            onClick={() => onOpenChange(false)}
            disabled={pending}
            data-testid={buttonTestIds.cancel}
          >
            {cancelLabel ?? t('dashboard.common.cancel')}
          </Button>
          <Button
            variant="primary"
            className={tone === 'danger' ? 'bg-error-700 hover:bg-error-800 active:bg-error-800' : undefined}
            onClick={onConfirm}
            loading={pending}
            data-testid={buttonTestIds.confirm}
          >
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
