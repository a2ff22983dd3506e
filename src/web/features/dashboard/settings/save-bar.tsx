import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { CheckCircleIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';

export interface SaveBarProps {
  dirty: boolean;
  saving: boolean;
  /** Buttons before Save (discard, for instance). */
  extra?: ReactNode;
  /** Keeps the bar in view at the bottom of the window while the form scrolls. */
  sticky?: boolean;
  saveTestId: string;
}

/** The state of a form ('Unsaved changes' / 'All changes saved') and its Save button (a submit). */
export function SaveBar({ dirty, saving, extra, sticky = false, saveTestId }: SaveBarProps) {
  const { t } = useTranslation();
  return (
    <div
      className={cn(
        'flex flex-wrap items-center justify-between gap-3 border-t border-gray-200 px-4 py-3 sm:px-6',
        sticky ? 'sticky bottom-0 z-20 rounded-b-card bg-white' : 'rounded-b-card bg-gray-50/60',
      )}
    >
      <p
        className="flex min-w-0 items-center gap-2 text-sm"
        role="status"
        aria-live="polite"
        data-testid={`${saveTestId}-status`}
      >
        {dirty ? (
          <>
            <span aria-hidden="true" className="size-2 shrink-0 rounded-full bg-pending-500" />
            <span className="text-gray-700">{t('settings.unsaved')}</span>
          </>
        ) : (
          <>
            <CheckCircleIcon className="size-4 shrink-0 text-completed-700" />
            <span className="text-gray-600">{t('settings.upToDate')}</span>
          </>
        )}
      </p>
      <div className="flex flex-1 items-center justify-end gap-2">
        {extra}
        <Button type="submit" disabled={!dirty} loading={saving} data-testid={saveTestId}>
          {t('settings.save')}
        </Button>
      </div>
    </div>
  );
}
