import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZWall } from '../../../../contract/api/wall.schema.js';
import type { TSetWallBody, TWall } from '../../../../contract/api/wall.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { wallKeys } from './get-wall';

/** PUT /api/wall { items }: the publications shown, in order (all or nothing) → the wall. */
export function setWall(body: TSetWallBody): Promise<TWall> {
  return apiFetch(API.wall.set.path, { method: API.wall.set.method, body, schema: ZWall });
}

/** Saves the wall and keeps the server's answer as the wall's data. */
export function useSetWallMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setWall,
    onSuccess: (wall) => queryClient.setQueryData(wallKeys.wall, wall),
  });
}
