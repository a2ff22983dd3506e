import { useMutation, useQueryClient } from "@tanstack/react-query";
import { API } from "../../../../contract/api/paths.js";
import type { TStatsResponse } from "../../../../contract/api/testimonials.schema.js";
import { ZPayResponse } from "../../../../contract/api/testimonials.schema.js";
import type { TPayResponse } from "../../../../contract/api/testimonials.schema.js";
import { apiFetch, isApiError } from "../../../lib/api-client";
import { statsKeys } from "./get-stats";
import { requestsKeys } from "./list-requests";
import { transactionsKeys } from "./list-transactions";

/**
 * POST /api/testimonials/pay/{id}: spends one credit to unlock a completed testimonial. An already
 * paid testimonial is not charged again. With no credit left the server answers 402 with the
 * no-credits message (see isNoCreditsError).
 */
export function payTestimonial({
  id,
}: {
  id: string;
  companyId: string;
}): Promise<TPayResponse> {
  return apiFetch(API.testimonials.pay.path(id), {
    method: API.testimonials.pay.method,
    body: {},
    schema: ZPayResponse,
  });
}

/** The pay call was refused because the company has no credit left. */
export function isNoCreditsError(error: unknown): boolean {
  return isApiError(error) && error.status === 402;
}

/**
 * On success: the balance the server answered goes straight into the stats (the header updates at
 * once), then the stats, the requests (list and details) and the transactions are fetched again.
 */
export function usePayTestimonialMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: payTestimonial,
    onSuccess: async (result, { companyId }) => {
      queryClient.setQueryData<TStatsResponse>(
        statsKeys.company(companyId),
        (stats) => (stats ? { ...stats, credits: result.credits } : stats),
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: statsKeys.all }),
        queryClient.invalidateQueries({ queryKey: requestsKeys.all }),
        queryClient.invalidateQueries({ queryKey: transactionsKeys.all }),
      ]);
    },
  });
}
