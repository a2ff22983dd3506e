import { z } from 'zod';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZInvitation, ZMemberList } from '../../../../contract/api/members.schema.js';
import type { TInvitation, TInviteBody, TMemberList, TRole } from '../../../../contract/api/members.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';

/**
 * The company's members and pending invitations (issue 32, decisions 215–216, owners only): the list,
 * inviting, sending an invitation again, cancelling it, changing a role and removing a member. Every
 * mutation refreshes the list through `membersKeys.all`.
 */

/** GET /api/members: members with their roles, and the invitations still waiting. */
export function listMembers(signal?: AbortSignal): Promise<TMemberList> {
  return apiFetch(API.members.list.path, { method: API.members.list.method, schema: ZMemberList, signal });
}

export const membersKeys = { all: ['members'] as const };

export const membersQueryOptions = () => queryOptions({ queryKey: membersKeys.all, queryFn: ({ signal }) => listMembers(signal) });

export function useMembers(options: { enabled?: boolean } = {}) {
  return useQuery({ ...membersQueryOptions(), enabled: options.enabled ?? true });
}

/** POST /api/members/invitations: invites by e-mail with a role; the e-mail goes out with it. */
export function inviteMember(body: TInviteBody): Promise<TInvitation> {
  return apiFetch(API.members.invite.path, { method: API.members.invite.method, body, schema: ZInvitation });
}

/** POST /api/members/invitations/{id}/resend: a new link and 7 more days (the old link stops working). */
export function resendInvitation(id: string): Promise<TInvitation> {
  return apiFetch(API.members.resendInvitation.path(id), { method: API.members.resendInvitation.method, schema: ZInvitation });
}

/** DELETE /api/members/invitations/{id}: the link stops working. */
export async function cancelInvitation(id: string): Promise<void> {
  await apiFetch(API.members.cancelInvitation.path(id), { method: API.members.cancelInvitation.method, schema: z.unknown() });
}

/** PUT /api/members/{userId}/role: refused (last_owner) for the company's last owner. */
export async function changeMemberRole({ userId, role }: { userId: string; role: TRole }): Promise<void> {
  await apiFetch(API.members.changeRole.path(userId), { method: API.members.changeRole.method, body: { role }, schema: z.unknown() });
}

/** DELETE /api/members/{userId}: their sessions in this company end at once; refused for the last owner. */
export async function removeMember(userId: string): Promise<void> {
  await apiFetch(API.members.remove.path(userId), { method: API.members.remove.method, schema: z.unknown() });
}

function useMembersMutation<TArgs, TResult>(mutationFn: (args: TArgs) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: membersKeys.all }) });
}

export const useInviteMemberMutation = () => useMembersMutation(inviteMember);
export const useResendInvitationMutation = () => useMembersMutation(resendInvitation);
export const useCancelInvitationMutation = () => useMembersMutation(cancelInvitation);
export const useChangeMemberRoleMutation = () => useMembersMutation(changeMemberRole);
export const useRemoveMemberMutation = () => useMembersMutation(removeMember);
