import './font-faces';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { Card } from '../../../components/card';
import { ErrorState } from '../../../components/error-state';
import { LockIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { Seo } from '../../../components/seo';
import { Skeleton } from '../../../components/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/tabs';
import { useAuth } from '../../../lib/auth-context';
import { BRAND_NAME } from '../../../lib/brand';
import { useRole } from '../../../lib/use-role';
import { useProfile } from '../api/get-profile';
import { useSettings } from '../api/get-settings';
import { useQuestions } from '../api/list-questions';
import { AccountPanel } from './account-panel';
import { ApiKeysCard } from './api-keys-card';
import { WebhooksCard } from './webhooks-card';
import { ApprovalSettingCard } from './approval-setting';
import { ReminderSettingsCard } from './reminder-settings';
import { TeamPanel } from './team-panel';
import { UnsavedChangesGuard } from './unsaved-changes-guard';
import { VideoStylePanel } from './video-style-panel';

type TTab = 'account' | 'video' | 'team';
/** Three tabs do not fit a phone's width on one line each: their labels may wrap there. */
const TRIGGER_CLASS = 'h-auto! min-h-9 py-1.5! text-center leading-tight whitespace-normal! sm:h-9! sm:py-0! sm:whitespace-nowrap!';
const TAB_PARAM = 'tab';

function PanelSkeleton({ rows, testId }: { rows: number; testId: string }) {
  return (
    <Card padding="none" aria-hidden="true" data-testid={testId}>
      <div className="border-b border-gray-100 px-4 py-5 sm:px-6">
        <Skeleton className="h-5 w-40" />
        <Skeleton className="mt-2 h-4 w-full max-w-md" />
      </div>
      <div className="flex flex-col gap-6 px-4 py-6 sm:px-6">
        {Array.from({ length: rows }, (_, row) => (
          <div key={row} className="flex flex-col gap-2">
            <Skeleton className="h-4 w-28" />
            <Skeleton className="h-10 w-full max-w-xl" />
          </div>
        ))}
      </div>
    </Card>
  );
}

/** Spec §8: a failed load of the settings shows the 'fetch error' toast (once per failure). */
function useFetchErrorToast(error: unknown, what: string) {
  const { t } = useTranslation();
  useEffect(() => {
    if (!error) return;
    console.warn(`${what} failed.`, error);
    toast.error(t('settings.errors.fetch'), {
      toastId: 'settings-fetch-error',
    });
  }, [error, what, t]);
}

/**
 * Where cards the role cannot change would be (the company's own for an editor or a viewer, the video
 * style for a viewer): who manages them, said once.
 */
function RoleNotice({ reason, testId }: { reason: 'role_required' | 'role_required_editor'; testId: string }) {
  const { t } = useTranslation();
  return (
    <Card padding="none" className="flex items-start gap-3 p-4 sm:p-5" data-testid={testId}>
      <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-gray-100 text-gray-600">
        <LockIcon className="size-4" />
      </span>
      <div className="min-w-0">
        <h2 className="text-sm font-semibold text-gray-900">{t('roleNotice.title')}</h2>
        <p className="mt-1 text-sm text-gray-600">{t(`errors.reasons.${reason}`)}</p>
      </div>
    </Card>
  );
}

/**
 * Settings (/dashboard/settings, spec §2): 'My account' and 'Video personalisation' as tabs (the
 * choice is kept in ?tab= so a reload stays on it). Both panels keep their edits while the other tab
 * shows, and leaving the page with unsaved edits asks first.
 */
export function SettingsScreen() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { can, role } = useRole();
  const [params, setParams] = useSearchParams();
  // The Team tab is the owners' (issue 32): the members API answers 403 to anyone else.
  // Unlike the cards (decision 219), the tab waits for the role: it is a whole section of owners' work.
  const isOwner = role !== undefined && can('members');
  const asked = params.get(TAB_PARAM);
  const tab: TTab = asked === 'video' ? 'video' : asked === 'team' && isOwner ? 'team' : 'account';
  const profile = useProfile();
  const settings = useSettings();
  const questions = useQuestions(user?.company_id);
  const [accountDirty, setAccountDirty] = useState(false);
  const [videoDirty, setVideoDirty] = useState(false);
  const onAccountDirty = useCallback((dirty: boolean) => setAccountDirty(dirty), []);
  const onVideoDirty = useCallback((dirty: boolean) => setVideoDirty(dirty), []);

  useFetchErrorToast(profile.error, 'GET /api/user/profile');
  useFetchErrorToast(settings.error, 'GET /api/auth/settings');

  const onTabChange = (value: string) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === 'video' || value === 'team') next.set(TAB_PARAM, value);
        else next.delete(TAB_PARAM);
        return next;
      },
      { replace: true },
    );
  };

  const question = questions.data?.[0]?.text?.trim() || t('settings.preview.sampleQuestion');

  return (
    <>
      <Seo
        title={t('settings.title')}
        description={t('settings.description', { brand: BRAND_NAME })}
        robots="noindex"
      />
      <UnsavedChangesGuard dirty={accountDirty || videoDirty} />
      <PageHeader title={t('settings.title')} description={t('settings.description', { brand: BRAND_NAME })} />
      <Tabs value={tab} onValueChange={onTabChange}>
        <TabsList aria-label={t('settings.tabs.label')} className="w-full sm:w-fit">
          <TabsTrigger value="account" className={TRIGGER_CLASS} data-testid="settings-tab-account">
            {t('settings.tabs.account')}
            {accountDirty ? <span aria-hidden="true" className="size-1.5 rounded-full bg-pending-500" /> : null}
          </TabsTrigger>
          <TabsTrigger value="video" className={TRIGGER_CLASS} data-testid="settings-tab-video">
            {t('settings.tabs.video')}
            {videoDirty ? <span aria-hidden="true" className="size-1.5 rounded-full bg-pending-500" /> : null}
          </TabsTrigger>
          {isOwner ? (
            <TabsTrigger value="team" className={TRIGGER_CLASS} data-testid="settings-tab-team">
              {t('settings.tabs.team')}
            </TabsTrigger>
          ) : null}
        </TabsList>

        <TabsContent value="account" forceMount className="data-[state=inactive]:hidden">
          {profile.isPending ? (
            <PanelSkeleton rows={2} testId="settings-account-loading" />
          ) : profile.isError ? (
            <ErrorState
              message={t('settings.errors.fetch')}
              onRetry={() => void profile.refetch()}
              retrying={profile.isFetching}
              data-testid="settings-account-error"
            />
          ) : (
            <>
              {/* Roles (issue 32, decision 219): the company's identity, keys and webhooks are an owner's. */}
              {can('editCompany') ? <AccountPanel profile={profile.data.user} onDirtyChange={onAccountDirty} /> : <RoleNotice reason="role_required" testId="settings-role-required" />}
              {can('approvals') && <ApprovalSettingCard value={profile.data.user.company.approval_required ?? false} />}
              {can('approvals') && <ReminderSettingsCard />}
              {can('apiKeys') && <ApiKeysCard />}
              {can('webhooks') && <WebhooksCard />}
            </>
          )}
        </TabsContent>

        <TabsContent value="video" forceMount className="data-[state=inactive]:hidden">
          {!can('editVideoStyle') ? (
            <RoleNotice reason="role_required_editor" testId="settings-video-role-required" />
          ) : settings.isPending ? (
            <PanelSkeleton rows={6} testId="settings-video-loading" />
          ) : settings.isError ? (
            <ErrorState
              message={t('settings.errors.fetch')}
              onRetry={() => void settings.refetch()}
              retrying={settings.isFetching}
              data-testid="settings-video-error"
            />
          ) : (
            <VideoStylePanel settings={settings.data} question={question} onDirtyChange={onVideoDirty} />
          )}
        </TabsContent>

        {isOwner ? <TabsContent value="team">{tab === 'team' ? <TeamPanel /> : null}</TabsContent> : null}
      </Tabs>
    </>
  );
}
