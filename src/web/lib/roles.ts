import type { TRole } from '../../contract/api/members.schema.js';

/**
 * What the dashboard offers to each role (issue 32, decision 219): the lowest role for each action a
 * control starts, the same matrix as the server's `src/server/http/route-roles.ts` (owner > editor >
 * viewer). The server checks every call; this only hides what a role cannot do.
 */
export const ACTION_ROLES = {
  /** Buy credits (checkout, confirm). */
  buyCredits: 'owner',
  /** The company's name, mail language and logo. */
  editCompany: 'owner',
  apiKeys: 'owner',
  webhooks: 'owner',
  members: 'owner',
  /** New request, reminders. */
  sendRequest: 'editor',
  editQuestions: 'editor',
  /** Spend a credit on a testimonial. */
  payTestimonial: 'editor',
  /** Render, merge, export, trim, transcribe, transcript edits, subtitles, publishing. */
  studio: 'editor',
  publish: 'editor',
  collectionLinks: 'editor',
  /** Video style, reminder and approval settings. */
  editVideoStyle: 'editor',
  approvals: 'editor',
} as const satisfies Record<string, TRole>;

export type TAction = keyof typeof ACTION_ROLES;

const RANK: Record<TRole, number> = { viewer: 0, editor: 1, owner: 2 };

/** Whether `role` may do `action`. */
export function roleAllows(role: TRole, action: TAction): boolean {
  return RANK[role] >= RANK[ACTION_ROLES[action]];
}

/** The reason shown where a hidden control would be: `role_required` for owners' actions, else `role_required_editor`. */
export function refusalReason(action: TAction): 'role_required' | 'role_required_editor' {
  return ACTION_ROLES[action] === 'owner' ? 'role_required' : 'role_required_editor';
}
