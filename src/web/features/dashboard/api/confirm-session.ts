import { useMutation, useQueryClient } from "@tanstack/react-query";
import { API } from "../../../../contract/api/paths.js";
import { ZConfirmSessionResponse } from "../../../../contract/api/payment.schema.js";
import type { TConfirmSessionResponse } from "../../../../contract/api/payment.schema.js";
import type { TStatsResponse } from "../../../../contract/api/testimonials.schema.js";
import { apiFetch } from "../../../lib/api-client";
import { statsKeys } from "./get-stats";
import { transactionsKeys } from "./list-transactions";

/**
 * POST /api/payment/confirm-session { sessionId } → { paid, credits }: the success return asks the
 * server to fulfil the checkout session (idempotent: credited once, whether the webhook came first
 * or not) and answers the company's balance.
 */
export function confirmSession({
  sessionId,
}: {
  sessionId: string;
  companyId: string;
}): Promise<TConfirmSessionResponse> {
  return apiFetch(API.payment.confirmSession.path, {
    method: API.payment.confirmSession.method,
    body: { sessionId },
    schema: ZConfirmSessionResponse,
  });
}

/** On success the new balance reaches the header at once; stats and transactions are fetched again. */
export function useConfirmSessionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmSession,
    onSuccess: async (result, { companyId }) => {
      queryClient.setQueryData<TStatsResponse>(
        statsKeys.company(companyId),
        (stats) => (stats ? { ...stats, credits: result.credits } : stats),
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: statsKeys.all }),
        queryClient.invalidateQueries({ queryKey: transactionsKeys.all }),
      ]);
    },
  });
}
