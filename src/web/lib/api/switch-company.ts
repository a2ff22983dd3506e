import { useMutation } from '@tanstack/react-query';
import { ZSwitchCompanyResponse } from '../../../contract/api/members.schema.js';
import { API } from '../../../contract/api/paths.js';
import { apiFetch } from '../api-client';

/** POST /api/companies/switch: a new access token naming the chosen company (the session follows it). */
export function switchCompany({ companyId }: { companyId: string }) {
  return apiFetch(API.companies.switch.path, {
    method: API.companies.switch.method,
    body: { companyId },
    schema: ZSwitchCompanyResponse,
  });
}

/** The switch itself; what follows (new token stored, cache cleared, overview) is the switcher's. */
export function useSwitchCompanyMutation() {
  return useMutation({ mutationFn: switchCompany });
}
