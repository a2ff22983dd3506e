import { z } from 'zod';

/** A person's role in a company (issue 32), from the most to the least allowed. */
export const ROLES = ['owner', 'editor', 'viewer'] as const;
export const ZRole = z.enum(ROLES);
export type TRole = z.infer<typeof ZRole>;

export const ZMember = z.object({
  userId: z.string().uuid(),
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  role: ZRole,
  joinedAt: z.string(),
  /** Whether this member is the caller. */
  you: z.boolean(),
});
export type TMember = z.infer<typeof ZMember>;

export const ZInvitation = z.object({
  id: z.string().uuid(),
  email: z.string(),
  role: ZRole,
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type TInvitation = z.infer<typeof ZInvitation>;

export const ZMemberList = z.object({ members: z.array(ZMember), invitations: z.array(ZInvitation) });
export type TMemberList = z.infer<typeof ZMemberList>;

export const ZInviteBody = z.object({
  email: z.string().trim().toLowerCase().email().max(254),
  role: ZRole,
});
export type TInviteBody = z.infer<typeof ZInviteBody>;

export const ZChangeRoleBody = z.object({ role: ZRole });

export const ZUserIdParams = z.object({ userId: z.string().uuid() });

/** The invitation seen by whoever holds its link (before signing in). */
export const ZInvitationPreview = z.object({
  companyName: z.string(),
  email: z.string(),
  role: ZRole,
  expiresAt: z.string(),
  /** Whether an account with this e-mail exists (sign in) or not (sign up). */
  accountExists: z.boolean(),
});
export type TInvitationPreview = z.infer<typeof ZInvitationPreview>;

export const ZInvitationTokenBody = z.object({ token: z.string().min(10).max(200) });

/** The companies the caller belongs to, with the role in each. */
export const ZMyCompany = z.object({ id: z.string().uuid(), name: z.string(), role: ZRole });
export const ZMyCompanies = z.object({ active: z.string().uuid(), companies: z.array(ZMyCompany) });
export type TMyCompanies = z.infer<typeof ZMyCompanies>;

export const ZSwitchCompanyBody = z.object({ companyId: z.string().uuid() });
/** A new access token naming the chosen company (the session remembers it, so a refresh keeps it). */
export const ZSwitchCompanyResponse = z.object({ token: z.string(), companyId: z.string().uuid(), role: ZRole });
export const ZAcceptInvitationResponse = ZSwitchCompanyResponse;
