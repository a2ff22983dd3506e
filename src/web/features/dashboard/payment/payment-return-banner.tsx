import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../../components/alert";
import { Button } from "../../../components/button";
import { creditForm } from "../../../lib/credits";
import { useConfirmSessionMutation } from "../api/confirm-session";
import { statsKeys } from "../api/get-stats";
import { transactionsKeys } from "../api/list-transactions";
import type { TPaymentReturn } from "./payment-return";

export interface PaymentReturnBannerProps {
  paymentReturn: TPaymentReturn;
  companyId: string;
  /** Removes the return's query parameters. */
  onDismiss: () => void;
}

/**
 * The message of the return from the checkout (spec §2, §4, §8). A success with a session id is
 * confirmed with the server first (it fulfils the session if the webhook has not yet), then the
 * success message shows and the header balance updates; an unpaid session says the payment is being
 * processed. A cancel shows the cancelled message. Test ids: `payment-confirming`, `payment-success`,
 * `payment-processing`, `payment-confirm-error`, `payment-cancel`.
 */
export function PaymentReturnBanner({
  paymentReturn,
  companyId,
  onDismiss,
}: PaymentReturnBannerProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const confirm = useConfirmSessionMutation();
  const { mutate } = confirm;
  const sessionId =
    paymentReturn.kind === "success" ? paymentReturn.sessionId : null;
  const isSuccess = paymentReturn.kind === "success";
  /** The session already sent for confirmation (effects run twice in development). */
  const confirmed = useRef<string | null>(null);

  useEffect(() => {
    if (!isSuccess || !companyId) return;
    if (!sessionId) {
      // A return without a session id (the webhook credits it): fetch the balance again.
      void queryClient.invalidateQueries({ queryKey: statsKeys.all });
      void queryClient.invalidateQueries({ queryKey: transactionsKeys.all });
      return;
    }
    if (confirmed.current === sessionId) return;
    confirmed.current = sessionId;
    mutate(
      { sessionId, companyId },
      {
        onError: (error) => {
          console.warn("Confirming the checkout session failed.", error);
        },
      },
    );
  }, [isSuccess, sessionId, companyId, mutate, queryClient]);

  const dismiss = (
    <Button
      variant="secondary"
      size="sm"
      onClick={onDismiss}
      disabled={confirm.isPending}
    >
      {t("credits.payment.dismiss")}
    </Button>
  );

  if (paymentReturn.kind === "cancel") {
    return (
      <Alert
        tone="warning"
        title={t("credits.payment.cancel.title")}
        action={dismiss}
        className="mb-6"
        data-testid="payment-cancel"
      >
        {t("credits.payment.cancel.body")}
      </Alert>
    );
  }
  if (paymentReturn.kind !== "success") return null;

  if (!sessionId) {
    return (
      <Alert
        tone="success"
        title={t("credits.payment.success.title")}
        action={dismiss}
        className="mb-6"
        data-testid="payment-success"
      >
        {t("credits.payment.success.body")}
      </Alert>
    );
  }
  if (confirm.isError) {
    return (
      <Alert
        tone="warning"
        className="mb-6"
        data-testid="payment-confirm-error"
        action={
          <>
            <Button size="sm" onClick={() => mutate({ sessionId, companyId })}>
              {t("dashboard.common.retry")}
            </Button>
            {dismiss}
          </>
        }
      >
        {t("credits.payment.success.error")}
      </Alert>
    );
  }
  if (confirm.isSuccess) {
    const { paid, credits } = confirm.data;
    if (!paid) {
      return (
        <Alert
          tone="info"
          action={dismiss}
          className="mb-6"
          data-testid="payment-processing"
        >
          {t("credits.payment.success.processing")}
        </Alert>
      );
    }
    return (
      <Alert
        tone="success"
        title={t("credits.payment.success.title")}
        action={dismiss}
        className="mb-6"
        data-testid="payment-success"
      >
        {t("credits.payment.success.body")}{" "}
        <span className="font-medium tabular-nums">
          {t(`credits.payment.balance.${creditForm(credits)}`, {
            count: credits,
          })}
          .
        </span>
      </Alert>
    );
  }
  return (
    <Alert tone="info" className="mb-6" data-testid="payment-confirming">
      <span aria-busy="true">{t("credits.payment.success.confirming")}</span>
    </Alert>
  );
}
