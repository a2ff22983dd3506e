import { useCallback } from 'react';
import type { TRole } from '../../contract/api/members.schema.js';
import { useMe } from './api/get-me';
import { useAuth } from './auth-context';
import { roleAllows, type TAction } from './roles';

export interface TRoleState {
  /** The role in the active company; undefined until GET /api/auth/me has answered. */
  role: TRole | undefined;
  /** The companies the person belongs to, with the role in each (empty until known). */
  companies: ReadonlyArray<{ id: string; name: string; role: TRole }>;
  /**
   * Whether the control for `action` shows. While the role is unknown (the first call in flight, or
   * an older server without roles) everything shows: the server checks every call, and its 403 says
   * why (decision 219).
   */
  can: (action: TAction) => boolean;
}

/** The signed-in person's role in the active company, from GET /api/auth/me (cached; a switch clears it). */
export function useRole(): TRoleState {
  const { status } = useAuth();
  const me = useMe({ enabled: status === 'authenticated' });
  const role = me.data?.role;
  const can = useCallback((action: TAction) => (role ? roleAllows(role, action) : true), [role]);
  return { role, companies: me.data?.companies ?? [], can };
}
