import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ROLES, type TInvitation, type TMember, type TRole } from '../../../../contract/api/members.schema.js';
import { Alert } from '../../../components/alert';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { ConfirmDialog } from '../../../components/dialog';
import { ErrorState } from '../../../components/error-state';
import { SelectField } from '../../../components/select-field';
import { Skeleton } from '../../../components/skeleton';
import { TextField } from '../../../components/text-field';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { formatDate } from '../../../lib/format';
import {
  useCancelInvitationMutation,
  useChangeMemberRoleMutation,
  useInviteMemberMutation,
  useMembers,
  useRemoveMemberMutation,
  useResendInvitationMutation,
} from '../api/members-api';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EMAIL_MAX = 254;

const fullName = (member: TMember) => `${member.firstname} ${member.lastname}`.trim() || member.email;

/**
 * The Team tab of the settings (issue 32, decision 218), for owners: invite by e-mail with a role, the
 * members (a table on wide screens, cards on a phone) with their role and a Remove that asks first, and
 * the invitations still waiting with Send again and Cancel. Every refusal shows the server's reason in
 * the person's language (last owner, already a member, invitation waiting…).
 * Test ids: `team-invite`, `team-invite-email`, `team-invite-role`, `team-invite-submit`,
 * `team-members`, `team-member-{userId}`, `team-role-{userId}`, `team-remove-{userId}`,
 * `team-members-alert`, `team-invitations`, `team-invitation-{id}`, `team-resend-{id}`, `team-cancel-{id}`.
 */
export function TeamPanel() {
  const { t } = useTranslation();
  const query = useMembers();

  return (
    <div className="flex flex-col gap-6" data-testid="team-panel">
      <InviteCard />
      <Card padding="none" aria-labelledby="team-members-title" data-testid="team-members-card">
        <div className="border-b border-gray-100 px-4 py-5 sm:px-6">
          <h2 id="team-members-title" className="text-base font-semibold text-gray-950">
            {t('team.members.title')}
          </h2>
          <p className="mt-1 text-sm text-gray-600">{t('team.members.description')}</p>
        </div>
        {query.isPending ? (
          <div className="flex flex-col gap-3 px-4 py-6 sm:px-6" aria-hidden="true" data-testid="team-loading">
            <Skeleton className="h-5 w-64" />
            <Skeleton className="h-5 w-56" />
            <Skeleton className="h-5 w-48" />
          </div>
        ) : query.isError ? (
          <div className="px-4 py-6 sm:px-6">
            <ErrorState message={t('team.loadError')} onRetry={() => void query.refetch()} retrying={query.isFetching} data-testid="team-error" />
          </div>
        ) : (
          <div className="px-4 py-5 sm:px-6">
            <MembersList members={query.data.members} />
          </div>
        )}
      </Card>
      {query.isSuccess ? <InvitationsCard invitations={query.data.invitations} /> : null}
    </div>
  );
}

function useRoleOptions() {
  const { t } = useTranslation();
  return ROLES.map((role) => ({ value: role, label: t(`team.roles.${role}`) }));
}

function InviteCard() {
  const { t } = useTranslation();
  const invite = useInviteMemberMutation();
  const roleOptions = useRoleOptions();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<TRole>('editor');
  const [emailError, setEmailError] = useState<string | undefined>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (invite.isPending) return;
    const address = email.trim().toLowerCase();
    if (!address) return setEmailError(t('team.invite.emailRequired'));
    if (address.length > EMAIL_MAX || !EMAIL_PATTERN.test(address)) return setEmailError(t('team.invite.emailInvalid'));
    setEmailError(undefined);
    invite.mutate(
      { email: address, role },
      {
        onSuccess: (invitation) => {
          toast.success(t('team.invite.sent', { email: invitation.email }));
          setEmail('');
          invite.reset();
        },
      },
    );
  };

  return (
    <Card padding="none" aria-labelledby="team-invite-title" data-testid="team-invite">
      <div className="border-b border-gray-100 px-4 py-5 sm:px-6">
        <h2 id="team-invite-title" className="text-base font-semibold text-gray-950">
          {t('team.invite.title')}
        </h2>
        <p className="mt-1 text-sm text-gray-600">{t('team.invite.description')}</p>
      </div>
      <form className="flex flex-col gap-4 px-4 py-5 sm:px-6" onSubmit={onSubmit} noValidate>
        <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_12rem]">
          <TextField
            label={t('team.invite.email')}
            type="email"
            inputMode="email"
            autoComplete="off"
            value={email}
            maxLength={EMAIL_MAX}
            placeholder={t('team.invite.emailPlaceholder')}
            onChange={(event) => {
              setEmail(event.target.value);
              setEmailError(undefined);
              if (invite.isError) invite.reset();
            }}
            error={emailError}
            data-testid="team-invite-email"
          />
          <SelectField
            label={t('team.invite.role')}
            value={role}
            onChange={(event) => setRole(event.target.value as TRole)}
            options={roleOptions}
            data-testid="team-invite-role"
          />
        </div>
        <ul className="flex flex-col gap-1.5 rounded-control bg-gray-50 px-3 py-3 text-sm text-gray-700" aria-label={t('team.roles.label')}>
          {ROLES.map((each) => (
            <li key={each} className={each === role ? 'text-gray-950' : undefined} data-testid={`team-role-hint-${each}`}>
              <span className="font-medium">{t(`team.roles.${each}`)}</span> — {t(`team.roleHints.${each}`)}
            </li>
          ))}
        </ul>
        {invite.isError ? (
          <Alert tone="error" data-testid="team-invite-error">
            {apiErrorMessage(invite.error, t)}
          </Alert>
        ) : null}
        <div className="flex justify-end">
          <Button type="submit" loading={invite.isPending} className="w-full sm:w-auto" data-testid="team-invite-submit">
            {invite.isPending ? t('team.invite.sending') : t('team.invite.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function MembersList({ members }: { members: TMember[] }) {
  const { t } = useTranslation();
  const roleOptions = useRoleOptions();
  const changeRole = useChangeMemberRoleMutation();
  const remove = useRemoveMemberMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [removing, setRemoving] = useState<TMember | null>(null);

  const onRole = (member: TMember, role: TRole) => {
    if (role === member.role) return;
    setFailure(null);
    changeRole.mutate(
      { userId: member.userId, role },
      {
        onSuccess: () => toast.success(t('team.members.roleChanged', { name: fullName(member), role: t(`team.roles.${role}`) })),
        onError: (error) => setFailure(apiErrorMessage(error, t)),
      },
    );
  };

  const confirmRemove = () => {
    if (!removing) return;
    remove.mutate(removing.userId, {
      onSuccess: () => {
        toast.success(t('team.members.removed', { name: fullName(removing) }));
        setRemoving(null);
      },
    });
  };

  const columns: DataTableColumn<TMember>[] = [
    {
      id: 'name',
      header: t('team.members.name'),
      card: 'title',
      cell: (member) => (
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium text-gray-950">{fullName(member)}</span>
            {member.you ? <Badge tone="brand">{t('team.members.you')}</Badge> : null}
          </div>
          <p className="mt-0.5 text-sm break-all text-gray-600">{member.email}</p>
        </div>
      ),
    },
    {
      id: 'joined',
      header: t('team.members.joined'),
      className: 'tabular-nums whitespace-nowrap text-gray-600',
      cell: (member) => formatDate(member.joinedAt),
    },
    {
      id: 'role',
      header: t('team.members.role'),
      className: 'w-44',
      cell: (member) => (
        <SelectField
          label={t('team.members.roleOf', { name: fullName(member) })}
          hideLabel
          value={member.role}
          disabled={changeRole.isPending}
          onChange={(event) => onRole(member, event.target.value as TRole)}
          options={roleOptions}
          className="sm:min-w-36"
          data-testid={`team-role-${member.userId}`}
        />
      ),
    },
    {
      id: 'actions',
      header: t('team.members.actions'),
      card: 'actions',
      className: 'text-right',
      cell: (member) => (
        <Button
          variant="ghost"
          size="sm"
          className="text-error-700! hover:bg-error-50!"
          onClick={() => {
            setFailure(null);
            remove.reset();
            setRemoving(member);
          }}
          aria-label={t('team.members.removeLabel', { name: fullName(member) })}
          data-testid={`team-remove-${member.userId}`}
        >
          {member.you ? t('team.members.leave') : t('team.members.remove')}
        </Button>
      ),
    },
  ];

  return (
    <>
      {failure ? (
        <Alert tone="error" className="mb-4" data-testid="team-members-alert">
          {failure}
        </Alert>
      ) : null}
      <DataTable
        columns={columns}
        rows={members}
        rowKey={(member) => member.userId}
        caption={t('team.members.title')}
        rowAttributes={(member) => ({ 'data-testid': `team-member-${member.userId}`, 'data-role': member.role })}
        data-testid="team-members"
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title={removing?.you ? t('team.members.leaveTitle') : t('team.members.removeTitle', { name: removing ? fullName(removing) : '' })}
        description={removing?.you ? t('team.members.leaveDescription') : t('team.members.removeDescription')}
        confirmLabel={removing?.you ? t('team.members.leaveConfirm') : t('team.members.removeConfirm')}
        onConfirm={confirmRemove}
        pending={remove.isPending}
        tone="danger"
        data-testid="team-remove-dialog"
      >
        {remove.isError ? (
          <Alert tone="error" data-testid="team-remove-error">
            {apiErrorMessage(remove.error, t)}
          </Alert>
        ) : null}
      </ConfirmDialog>
    </>
  );
}

function InvitationsCard({ invitations }: { invitations: TInvitation[] }) {
  const { t } = useTranslation();
  const resend = useResendInvitationMutation();
  const cancel = useCancelInvitationMutation();
  const [cancelling, setCancelling] = useState<TInvitation | null>(null);

  const onResend = (invitation: TInvitation) => {
    resend.mutate(invitation.id, {
      onSuccess: (sent) => toast.success(t('team.invitations.resent', { email: sent.email })),
      onError: (error) => toast.error(apiErrorMessage(error, t)),
    });
  };

  const confirmCancel = () => {
    if (!cancelling) return;
    cancel.mutate(cancelling.id, {
      onSuccess: () => {
        toast.success(t('team.invitations.cancelled', { email: cancelling.email }));
        setCancelling(null);
      },
    });
  };

  return (
    <Card padding="none" aria-labelledby="team-invitations-title" data-testid="team-invitations">
      <div className="border-b border-gray-100 px-4 py-5 sm:px-6">
        <h2 id="team-invitations-title" className="text-base font-semibold text-gray-950">
          {t('team.invitations.title')}
        </h2>
        <p className="mt-1 text-sm text-gray-600">{t('team.invitations.description')}</p>
      </div>
      {invitations.length === 0 ? (
        <p className="px-4 py-6 text-sm text-gray-600 sm:px-6" data-testid="team-invitations-empty">
          {t('team.invitations.empty')}
        </p>
      ) : (
        <ul className="divide-y divide-gray-100">
          {invitations.map((invitation) => (
            <li
              key={invitation.id}
              className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-6"
              data-testid={`team-invitation-${invitation.id}`}
            >
              <div className="min-w-0">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium break-all text-gray-950">{invitation.email}</span>
                  <Badge tone="pending" dot>
                    {t(`team.roles.${invitation.role}`)}
                  </Badge>
                </div>
                <p className="mt-1 text-xs text-gray-500 tabular-nums">
                  {t('team.invitations.sentOn', { date: formatDate(invitation.createdAt) })} ·{' '}
                  {t('team.invitations.expires', { date: formatDate(invitation.expiresAt) })}
                </p>
              </div>
              <div className="flex shrink-0 gap-2">
                <Button
                  variant="secondary"
                  size="sm"
                  loading={resend.isPending && resend.variables === invitation.id}
                  disabled={resend.isPending}
                  onClick={() => onResend(invitation)}
                  data-testid={`team-resend-${invitation.id}`}
                >
                  {t('team.invitations.resend')}
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-error-700! hover:bg-error-50!"
                  onClick={() => {
                    cancel.reset();
                    setCancelling(invitation);
                  }}
                  data-testid={`team-cancel-${invitation.id}`}
                >
                  {t('team.invitations.cancel')}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(open) => {
          if (!open) setCancelling(null);
        }}
        title={t('team.invitations.cancelTitle', { email: cancelling?.email ?? '' })}
        description={t('team.invitations.cancelDescription')}
        confirmLabel={t('team.invitations.cancelConfirm')}
        cancelLabel={t('team.invitations.keep')}
        onConfirm={confirmCancel}
        pending={cancel.isPending}
        tone="danger"
        data-testid="team-cancel-dialog"
      >
        {cancel.isError ? <Alert tone="error">{apiErrorMessage(cancel.error, t)}</Alert> : null}
      </ConfirmDialog>
    </Card>
  );
}
