import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZUpdateCompanyResponse } from '../../../../contract/api/settings.schema.js';
import type { TUpdateCompanyBody, TUpdateCompanyResponse } from '../../../../contract/api/settings.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { profileKeys } from './get-profile';

/** PUT /api/user/update-company: company_name and mail_language; answers the profile. name_exists when taken. */
export function updateCompany(body: TUpdateCompanyBody): Promise<TUpdateCompanyResponse> {
  return apiFetch(API.settings.updateCompany.path, {
    method: API.settings.updateCompany.method,
    body,
    schema: ZUpdateCompanyResponse,
  });
}

/**
 * Saves the account and spreads the answer: the profile query, and the signed-in user (stored too),
 * which the rest of the dashboard reads the company name from.
 */
export function useUpdateCompanyMutation() {
  const queryClient = useQueryClient();
  const { updateUser } = useAuth();
  return useMutation({
    mutationFn: updateCompany,
    onSuccess: (profile) => {
      queryClient.setQueryData(profileKeys.all, profile);
      updateUser((user) => ({
        ...user,
        mail_language: profile.user.mail_language,
        company: profile.user.company,
      }));
    },
  });
}
