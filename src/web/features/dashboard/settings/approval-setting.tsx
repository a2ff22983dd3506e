import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Alert } from '../../../components/alert';
import { Card } from '../../../components/card';
import { SwitchField } from '../../../components/switch-field';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { useUpdateApprovalSettingMutation } from '../api/update-approval-setting';

/**
 * The company's approval setting (issue 29): whether customers approve the final cut before it is
 * published, off unless set. Saved at once when switched (PUT /api/user/approval-setting); the switch
 * shows the new value while it saves and goes back if the call fails, saying why. Each testimonial can
 * differ on its own page. Test ids `approval-setting`, `approval-setting-error`.
 */
export function ApprovalSettingCard({ value }: { value: boolean }) {
  const { t } = useTranslation();
  const mutation = useUpdateApprovalSettingMutation();
  const [pending, setPending] = useState<boolean | null>(null);
  const checked = pending ?? value;

  const onChange = (next: boolean) => {
    setPending(next);
    mutation.mutate(next, {
      onSuccess: ({ approval_required }) => toast.success(t(approval_required ? 'settings.approval.savedOn' : 'settings.approval.savedOff')),
      onError: (error) => console.warn('PUT /api/user/approval-setting failed.', error),
      onSettled: () => setPending(null),
    });
  };

  return (
    <Card padding="none" className="mt-6" aria-labelledby="settings-approval-title">
      <div className="border-b border-gray-100 px-4 py-5 sm:px-6">
        <h2 id="settings-approval-title" className="text-base font-semibold text-gray-950">
          {t('settings.approval.title')}
        </h2>
        <p className="mt-1 text-sm text-gray-600">{t('settings.approval.description')}</p>
      </div>
      <div className="flex max-w-2xl flex-col gap-4 px-4 py-6 sm:px-6">
        <SwitchField
          label={t('settings.approval.label')}
          hint={t('settings.approval.hint')}
          checked={checked}
          disabled={mutation.isPending}
          onCheckedChange={onChange}
          data-testid="approval-setting"
        />
        {mutation.isError && (
          <Alert tone="error" title={t('settings.approval.error')} data-testid="approval-setting-error">
            {apiErrorMessage(mutation.error, t)}
          </Alert>
        )}
      </div>
    </Card>
  );
}
