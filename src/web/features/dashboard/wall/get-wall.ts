import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZWall } from '../../../../contract/api/wall.schema.js';
import type { TWall } from '../../../../contract/api/wall.schema.js';
import { apiFetch } from '../../../lib/api-client';

/** GET /api/wall: the company's wall (created on first read), its snippets and every live publication with its place. */
export function getWall(signal?: AbortSignal): Promise<TWall> {
  return apiFetch(API.wall.get.path, { method: API.wall.get.method, schema: ZWall, signal });
}

/** Under the publications' key: publishing or unpublishing elsewhere reads the wall again. */
export const wallKeys = { wall: ['publications', 'wall'] as const };

export const wallQueryOptions = () => queryOptions({ queryKey: wallKeys.wall, queryFn: ({ signal }) => getWall(signal) });

export function useWall() {
  return useQuery(wallQueryOptions());
}
