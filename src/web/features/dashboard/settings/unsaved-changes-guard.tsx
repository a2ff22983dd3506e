import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from '../../../components/dialog';
import { getToken } from '../../../lib/session';

/**
 * Asks before unsaved settings are lost: leaving for another page of the app opens a dialog, closing or
 * reloading the tab gets the browser's own prompt. Moving between the settings' tabs is not leaving, and
 * a session that has ended (sign-out, failed refresh) is never held back.
 */
export function UnsavedChangesGuard({ dirty }: { dirty: boolean }) {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && Boolean(getToken()) && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => {
        if (!open && blocker.state === 'blocked') blocker.reset();
      }}
      title={t('settings.leave.title')}
      description={t('settings.leave.description')}
      confirmLabel={t('settings.leave.confirm')}
      cancelLabel={t('settings.leave.stay')}
      tone="danger"
      onConfirm={() => {
        if (blocker.state === 'blocked') blocker.proceed();
      }}
      data-testid="settings-leave-dialog"
    />
  );
}
