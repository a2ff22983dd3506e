import { z } from 'zod';

/**
 * GET /api/public/app-config: what the web app needs to know of the server's configuration
 * (never a secret): which sign-in providers are enabled, the support address and the brand.
 */
export const ZAppConfigResponse = z.object({
  brandName: z.string(),
  supportEmail: z.string(),
  googleEnabled: z.boolean(),
});
export type TAppConfigResponse = z.infer<typeof ZAppConfigResponse>;
