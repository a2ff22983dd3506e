import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZCompanyApprovalSettingResponse } from '../../../../contract/api/consent.schema.js';
import type { TCompanyApprovalSettingResponse } from '../../../../contract/api/consent.schema.js';
import { API } from '../../../../contract/api/paths.js';
import type { TProfileResponse } from '../../../../contract/api/settings.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { profileKeys } from './get-profile';
import { testimonialKeys } from './get-testimonial';

/** PUT /api/user/approval-setting: the company's default, whether customers approve the final cut (off unless set). */
export function updateApprovalSetting(approvalRequired: boolean): Promise<TCompanyApprovalSettingResponse> {
  return apiFetch(API.consent.companySetting.path, {
    method: API.consent.companySetting.method,
    body: { approval_required: approvalRequired },
    schema: ZCompanyApprovalSettingResponse,
  });
}

/**
 * Saves the setting and spreads the answer: the profile (company.approval_required), the signed-in
 * user's company, and every testimonial, whose effective approval may follow it.
 */
export function useUpdateApprovalSettingMutation() {
  const queryClient = useQueryClient();
  const { updateUser } = useAuth();
  return useMutation({
    mutationFn: updateApprovalSetting,
    onSuccess: ({ approval_required }) => {
      queryClient.setQueryData<TProfileResponse>(profileKeys.all, (profile) =>
        profile ? { ...profile, user: { ...profile.user, company: { ...profile.user.company, approval_required } } } : profile,
      );
      updateUser((user) => (user.company ? { ...user, company: { ...user.company, approval_required } } : user));
      void queryClient.invalidateQueries({ queryKey: testimonialKeys.all });
    },
  });
}
