import { queryOptions, useQuery } from "@tanstack/react-query";
import { API } from "../../../../contract/api/paths.js";
import { ZListTransactionResponse } from "../../../../contract/api/payment.schema.js";
import type { TListTransactionResponse } from "../../../../contract/api/payment.schema.js";
import { apiFetch } from "../../../lib/api-client";

/** GET /api/payment/list-transaction: the company's transactions, newest first. */
export function listTransactions(
  signal?: AbortSignal,
): Promise<TListTransactionResponse> {
  return apiFetch(API.payment.listTransactions.path, {
    method: API.payment.listTransactions.method,
    schema: ZListTransactionResponse,
    signal,
  });
}

export const transactionsKeys = {
  all: ["transactions"] as const,
};

export const transactionsQueryOptions = () =>
  queryOptions({
    queryKey: transactionsKeys.all,
    queryFn: ({ signal }) => listTransactions(signal),
  });

export function useTransactions() {
  return useQuery(transactionsQueryOptions());
}
