import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import type { TInvitationPreview } from '../../../contract/api/members.schema.js';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { Skeleton } from '../../components/skeleton';
import { isApiError } from '../../lib/api-client';
import { apiErrorMessage } from '../../lib/api-error-message';
import { meQueryOptions } from '../../lib/api/get-me';
import { useAuth } from '../../lib/auth-context';
import { BRAND_NAME } from '../../lib/brand';
import { formatDate } from '../../lib/format';
import { paths } from '../../lib/paths';
import { clearPendingInvitation, getPendingInvitation, invitationTokenFromHash, savePendingInvitation } from '../../lib/pending-invitation';
import { updateTokens } from '../../lib/session';
import { useAcceptInvitationMutation, useInvitationPreview } from './api/invitation';
import { AuthLayout } from './components/auth-layout';
import type { TSigninLocationState } from './signin-page';

/** The token: the link's fragment first, else the invitation kept while the person signed in or up. */
function readToken(hash: string): string | null {
  return invitationTokenFromHash(hash) ?? getPendingInvitation()?.token ?? null;
}

/**
 * The invitation page (/invitation#token=…, issue 32, decision 218): reads the link, shows who invites
 * to which company with which role, and offers what fits the visitor: "Join" for the invited account,
 * "sign out and continue" for another account, "create my account" or "I already have an account" for
 * a visitor. The invitation is kept in this tab (lib/pending-invitation) so that signing in, signing up
 * or Google's round trip comes back to it. Test ids `invitation-page`, `invitation-details`,
 * `invitation-join`, `invitation-signout`, `invitation-signup`, `invitation-signin`, `invitation-error`.
 */
export function InvitationPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const [token] = useState(() => readToken(location.hash));
  const preview = useInvitationPreview(token);

  // A readable invitation is kept for the sign-in, the sign-up and Google's round trip.
  useEffect(() => {
    if (token && preview.data) {
      savePendingInvitation({ token, email: preview.data.email, companyName: preview.data.companyName, role: preview.data.role });
    }
  }, [token, preview.data]);

  const seo = { title: t('invitation.meta.title'), description: t('invitation.meta.description', { brand: BRAND_NAME }), robots: 'noindex' as const };

  if (!token || preview.isError) {
    const unusable = !token || (isApiError(preview.error) && (preview.error.status === 404 || preview.error.status === 409));
    return (
      <AuthLayout seo={seo} title={unusable ? t('invitation.unusableTitle') : t('invitation.meta.title')}>
        <div data-testid="invitation-page" className="flex flex-col gap-6">
          <Alert tone={unusable ? 'warning' : 'error'} data-testid="invitation-error">
            {!token ? t('invitation.noToken') : unusable ? apiErrorMessage(preview.error, t) : t('invitation.loadError')}
          </Alert>
          {!unusable ? (
            <Button variant="secondary" onClick={() => void preview.refetch()} loading={preview.isFetching}>
              {t('dashboard.common.retry')}
            </Button>
          ) : null}
        </div>
      </AuthLayout>
    );
  }

  if (preview.isPending) {
    return (
      <AuthLayout seo={seo} title={t('invitation.meta.title')} subtitle={t('invitation.loading')}>
        <div className="flex flex-col gap-3" aria-hidden="true" data-testid="invitation-loading">
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-5 w-3/4" />
          <Skeleton className="mt-4 h-11 w-full" />
        </div>
      </AuthLayout>
    );
  }

  return <InvitationDetails token={token} invitation={preview.data} seo={seo} />;
}

function InvitationDetails({ token, invitation, seo }: { token: string; invitation: TInvitationPreview; seo: { title: string; description: string; robots: 'noindex' } }) {
  const { t } = useTranslation();
  const { status, user, signOut, updateUser } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const accept = useAcceptInvitationMutation();
  const [finishing, setFinishing] = useState(false);
  const company = invitation.companyName;
  const sameAccount = !user || user.email.toLowerCase() === invitation.email.toLowerCase();

  const join = () => {
    accept.mutate(token, {
      onSuccess: async (result) => {
        setFinishing(true);
        // The session now works in the invited company: new access token, then the user as it sees it.
        updateTokens({ token: result.token });
        queryClient.removeQueries();
        try {
          const me = await queryClient.fetchQuery(meQueryOptions());
          updateUser(() => me.user);
        } catch (error) {
          console.warn('GET /api/auth/me after joining failed; the dashboard reads it again.', error);
        }
        clearPendingInvitation();
        toast.success(t('invitation.joined', { company }));
        await navigate(paths.dashboard.root, { replace: true });
      },
    });
  };

  const signOutAndContinue = async () => {
    await signOut();
    await navigate(paths.invitation, { replace: true });
  };

  const toSignin = () => {
    const state: TSigninLocationState = { from: paths.invitation, email: invitation.email };
    void navigate(paths.signin, { state });
  };
  const toSignup = () => void navigate(paths.signup);

  const signinButton = (primary: boolean) => (
    <Button key="signin" variant={primary ? 'primary' : 'secondary'} size="lg" fullWidth onClick={toSignin} data-testid="invitation-signin">
      {t('invitation.haveAccount')}
    </Button>
  );
  const signupButton = (primary: boolean) => (
    <Button key="signup" variant={primary ? 'primary' : 'secondary'} size="lg" fullWidth onClick={toSignup} data-testid="invitation-signup">
      {t('invitation.createAccount')}
    </Button>
  );

  return (
    <AuthLayout
      seo={seo}
      title={t('invitation.title', { company })}
      subtitle={t('invitation.summary', { company, asRole: t(`team.asRole.${invitation.role}`) })}
    >
      <div data-testid="invitation-page" className="flex flex-col gap-6">
        <dl className="divide-y divide-gray-100 rounded-card border border-gray-200 text-sm" data-testid="invitation-details">
          <div className="flex flex-col gap-1 px-4 py-3">
            <dt className="text-gray-600">{t('invitation.sentTo')}</dt>
            <dd className="font-medium break-all text-gray-950">{invitation.email}</dd>
          </div>
          <div className="flex flex-col gap-1 px-4 py-3">
            <div className="flex items-center justify-between gap-4">
              <dt className="text-gray-600">{t('invitation.roleLabel')}</dt>
              <dd>
                <Badge tone="brand">{t(`team.roles.${invitation.role}`)}</Badge>
              </dd>
            </div>
            <p className="text-gray-600">{t(`team.roleHints.${invitation.role}`)}</p>
          </div>
          <div className="flex items-center justify-between gap-4 px-4 py-3">
            <dt className="text-gray-600">{t('invitation.expiresLabel')}</dt>
            <dd className="font-medium text-gray-950 tabular-nums">{formatDate(invitation.expiresAt)}</dd>
          </div>
        </dl>

        {accept.isError ? (
          <Alert tone="error" data-testid="invitation-error">
            {apiErrorMessage(accept.error, t)}
          </Alert>
        ) : null}

        {status === 'restoring' ? (
          <Skeleton className="h-11 w-full" />
        ) : status === 'authenticated' && sameAccount ? (
          <div className="flex flex-col gap-3">
            {user ? <p className="text-center text-sm text-gray-600">{t('invitation.signedInAs', { email: user.email })}</p> : null}
            <Button size="lg" fullWidth onClick={join} loading={accept.isPending || finishing} data-testid="invitation-join">
              {accept.isPending || finishing ? t('invitation.joining') : t('invitation.join', { company })}
            </Button>
          </div>
        ) : status === 'authenticated' ? (
          <div className="flex flex-col gap-3">
            <Alert tone="warning" data-testid="invitation-other-account">
              {t('invitation.otherAccount', { invited: invitation.email, current: user?.email ?? '' })}
            </Alert>
            <Button size="lg" fullWidth variant="secondary" onClick={() => void signOutAndContinue()} data-testid="invitation-signout">
              {t('invitation.signOut')}
            </Button>
          </div>
        ) : (
          <div className="flex flex-col gap-3">
            <p className="text-center text-sm text-gray-600">
              {invitation.accountExists
                ? t('invitation.accountExistsHint', { email: invitation.email })
                : t('invitation.newAccountHint', { email: invitation.email, company })}
            </p>
            {/* An account with this address exists: signing up again would be refused, so only sign-in. */}
            {invitation.accountExists ? signinButton(true) : [signupButton(true), signinButton(false)]}
          </div>
        )}
      </div>
    </AuthLayout>
  );
}
