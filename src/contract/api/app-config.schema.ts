import { z } from 'zod';

/**
 * GET /api/public/app-config: what the web app needs to know of the server's configuration
 * (never a secret): which sign-in providers are enabled, the support address and the brand.
 */
export const ZAppConfigResponse = z.object({
  brandName: z.string(),
  supportEmail: z.string(),
  googleEnabled: z.boolean(),
  /**
   * How credits are bought: Stripe Checkout, the labelled test mode of a development installation, or
   * not at all (a production installation without Stripe keys; the payment screen says so).
   */
  payments: z.enum(['stripe', 'test', 'disabled']),
});
export type TAppConfigResponse = z.infer<typeof ZAppConfigResponse>;
