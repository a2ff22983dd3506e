/**
 * The invitation a person is accepting (issue 32, decision 218), kept in sessionStorage under
 * `pendingInvitation` while they sign in, sign up or go through Google's round trip: the link's token
 * lives only in the address's fragment, which those pages lose. Like the Google keys it stays in this
 * tab only, and it survives a sign-out (the invitation page's "sign out and continue"). It is cleared
 * once the invitation is accepted, or when the person chooses to create their own company instead.
 * The stored company, e-mail and role are for display only; the server reads the token alone.
 */
import type { TRole } from '../../contract/api/members.schema.js';

export const PENDING_INVITATION_KEY = 'pendingInvitation';

export interface TPendingInvitation {
  token: string;
  email: string;
  companyName: string;
  role: TRole;
}

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

export function savePendingInvitation(invitation: TPendingInvitation): void {
  try {
    storage()?.setItem(PENDING_INVITATION_KEY, JSON.stringify(invitation));
  } catch {
    // Blocked storage: the invitation then lasts as long as the page.
  }
}

/** The stored invitation, or null when there is none or it cannot be read. */
export function getPendingInvitation(): TPendingInvitation | null {
  try {
    const raw = storage()?.getItem(PENDING_INVITATION_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<TPendingInvitation>;
    if (typeof value.token !== 'string' || typeof value.email !== 'string' || typeof value.companyName !== 'string') return null;
    if (value.role !== 'owner' && value.role !== 'editor' && value.role !== 'viewer') return null;
    return { token: value.token, email: value.email, companyName: value.companyName, role: value.role };
  } catch {
    return null;
  }
}

export function clearPendingInvitation(): void {
  try {
    storage()?.removeItem(PENDING_INVITATION_KEY);
  } catch {
    // Nothing to do.
  }
}

/** The token in an invitation link's fragment (`#token=…`), or null. */
export function invitationTokenFromHash(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token')?.trim();
  return token && token.length >= 10 ? token : null;
}
