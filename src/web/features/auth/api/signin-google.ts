import { useMutation } from '@tanstack/react-query';
import { ZSigninGoogleResponse } from '../../../../contract/api/auth.schema.js';
import type { TAuthAction, TSigninGoogleResponse } from '../../../../contract/api/auth.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';
import { setGoogleAuthAction } from '../../../lib/session';

/** POST /api/auth/signin-google: the provider's address the browser goes to. */
export function signinGoogle(): Promise<TSigninGoogleResponse> {
  return apiFetch(API.auth.signinGoogle.path, {
    method: API.auth.signinGoogle.method,
    body: { provider: 'google' },
    schema: ZSigninGoogleResponse,
    skipRefresh: true,
  });
}

/**
 * Starts the Google sign-in: remembers why (googleAuthAction), asks the server for the address and
 * leaves for it. The mutation stays pending while the browser navigates away.
 */
export function useGoogleSigninMutation() {
  return useMutation({
    mutationFn: async (action: TAuthAction) => {
      setGoogleAuthAction(action);
      const { url } = await signinGoogle();
      window.location.assign(url);
      // Keep the button busy until the page is gone.
      await new Promise<never>(() => undefined);
    },
  });
}
