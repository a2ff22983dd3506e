import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZProfileResponse } from '../../../../contract/api/settings.schema.js';
import type { TProfileResponse } from '../../../../contract/api/settings.schema.js';
import { apiFetch } from '../../../lib/api-client';

/** GET /api/user/profile: the signed-in user with user.company.name and user.mail_language. */
export function getProfile(signal?: AbortSignal): Promise<TProfileResponse> {
  return apiFetch(API.settings.profile.path, {
    method: API.settings.profile.method,
    schema: ZProfileResponse,
    signal,
  });
}

export const profileKeys = {
  all: ['profile'] as const,
};

export const profileQueryOptions = () =>
  queryOptions({
    queryKey: profileKeys.all,
    queryFn: ({ signal }) => getProfile(signal),
  });

export function useProfile() {
  return useQuery(profileQueryOptions());
}
