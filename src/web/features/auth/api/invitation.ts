import { useMutation, useQuery } from '@tanstack/react-query';
import { ZAcceptInvitationResponse, ZInvitationPreview } from '../../../../contract/api/members.schema.js';
import type { TInvitationPreview } from '../../../../contract/api/members.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';

/** GET /api/invitations/preview?token=: who invites to which company with which role (public). */
export function previewInvitation(token: string, signal?: AbortSignal): Promise<TInvitationPreview> {
  return apiFetch(`${API.invitations.preview.path}?${new URLSearchParams({ token }).toString()}`, {
    method: API.invitations.preview.method,
    schema: ZInvitationPreview,
    signal,
    skipRefresh: true,
  });
}

export const invitationKeys = { preview: (token: string) => ['invitation', 'preview', token] as const };

export function useInvitationPreview(token: string | null) {
  return useQuery({
    queryKey: invitationKeys.preview(token ?? ''),
    queryFn: ({ signal }) => previewInvitation(token ?? '', signal),
    enabled: token !== null,
    retry: false,
    staleTime: Infinity,
  });
}

/** POST /api/invitations/accept: joins with the signed-in session; answers a token naming that company. */
export function acceptInvitation(token: string) {
  return apiFetch(API.invitations.accept.path, { method: API.invitations.accept.method, body: { token }, schema: ZAcceptInvitationResponse });
}

export function useAcceptInvitationMutation() {
  return useMutation({ mutationFn: acceptInvitation });
}
