import { useMutation } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZCompleteOnboardingResponse } from '../../../../contract/api/settings.schema.js';
import type { TCompleteOnboardingResponse } from '../../../../contract/api/settings.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';

/** PUT /api/user/complete-onboarding (empty body). */
export function completeOnboarding(): Promise<TCompleteOnboardingResponse> {
  return apiFetch(API.settings.completeOnboarding.path, {
    method: API.settings.completeOnboarding.method,
    schema: ZCompleteOnboardingResponse,
  });
}

/**
 * Marks onboarding done on the server, then in the stored user, so the tour does not come back after
 * a reload. A failure is only logged (spec §8); the tour then shows again at the next visit.
 */
export function useCompleteOnboardingMutation() {
  const { updateUser } = useAuth();
  return useMutation({
    mutationFn: completeOnboarding,
    onSuccess: () => updateUser((user) => ({ ...user, onboarding_completed: true })),
    onError: (error) => console.warn('PUT /api/user/complete-onboarding failed.', error),
  });
}
