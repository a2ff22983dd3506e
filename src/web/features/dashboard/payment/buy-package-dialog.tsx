import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CreditPackage } from "../../../../contract/constants.js";
import { Alert } from "../../../components/alert";
import { Button } from "../../../components/button";
import { Dialog } from "../../../components/dialog";
import { useLanguage } from "../../../i18n/use-language";
import { isApiError } from "../../../lib/api-client";
import { creditForm } from "../../../lib/credits";
import { useCreateCheckoutSessionMutation } from "../api/create-checkout-session";
import { packageFigures } from "./package-display";

export interface BuyPackageDialogProps {
  /** The package chosen; null closes the dialog. */
  pkg: CreditPackage | null;
  onClose: () => void;
}

/**
 * Confirms a purchase (spec §4): the package, its credits and its total; on confirm a checkout session
 * is created and the browser goes to its address (Stripe Checkout, or the test-mode page). The button
 * stays busy until the page is left. A failure is logged and shown as an alert with the payment error
 * message (§8); the dialog stays open to try again. Test ids: `buy-dialog`, `buy-confirm`,
 * `payment-error`.
 */
export function BuyPackageDialog({ pkg, onClose }: BuyPackageDialogProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const checkout = useCreateCheckoutSessionMutation();
  const [redirecting, setRedirecting] = useState(false);
  const busy = checkout.isPending || redirecting;

  // Coming back with the browser's back button may restore this page as it was left: busy.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setRedirecting(false);
    };
    window.addEventListener("pageshow", onPageShow);
    return () => window.removeEventListener("pageshow", onPageShow);
  }, []);

  const close = () => {
    if (busy) return;
    checkout.reset();
    onClose();
  };

  const onConfirm = () => {
    if (!pkg || busy) return;
    checkout.mutate(
      { priceId: pkg.id },
      {
        onSuccess: ({ url }) => {
          setRedirecting(true);
          window.location.assign(url);
        },
        onError: (error) => {
          console.warn("Creating the checkout session failed.", error);
        },
      },
    );
  };

  const name = pkg ? t(`credits.payment.packages.${pkg.id}`) : "";
  const figures = pkg ? packageFigures(pkg, language) : null;

  return (
    <Dialog
      open={pkg !== null}
      onOpenChange={(open) => {
        if (!open) close();
      }}
      title={t("credits.payment.confirm.title")}
      description={t("credits.payment.confirm.description")}
      size="sm"
      busy={busy}
      data-testid="buy-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={busy}>
            {t("dashboard.common.cancel")}
          </Button>
          <Button onClick={onConfirm} loading={busy} data-testid="buy-confirm">
            {t("credits.payment.confirm.submit")}
          </Button>
        </>
      }
    >
      {pkg && figures && (
        <div className="flex flex-col gap-4">
          <dl className="divide-y divide-gray-100 rounded-control border border-gray-200 text-sm">
            <div className="flex items-center justify-between gap-4 px-4 py-2.5">
              <dt className="text-gray-600">
                {t("credits.payment.confirm.package")}
              </dt>
              <dd
                className="font-medium text-gray-900"
                data-testid="buy-package"
              >
                {name}
              </dd>
            </div>
            <div className="flex items-center justify-between gap-4 px-4 py-2.5">
              <dt className="text-gray-600">
                {t("credits.payment.confirm.credits")}
              </dt>
              <dd
                className="font-medium text-gray-900 tabular-nums"
                data-testid="buy-credits"
              >
                {t(`credits.payment.creditCount.${creditForm(pkg.credits)}`, {
                  count: pkg.credits,
                })}
              </dd>
            </div>
            <div className="flex items-center justify-between gap-4 px-4 py-2.5">
              <dt className="text-gray-600">
                {t("credits.payment.confirm.unitPrice")}
              </dt>
              <dd className="text-gray-900 tabular-nums">{figures.unit}</dd>
            </div>
            <div className="flex items-center justify-between gap-4 bg-gray-50 px-4 py-3">
              <dt className="font-medium text-gray-900">
                {t("credits.payment.confirm.total")}
              </dt>
              <dd
                className="text-base font-semibold text-gray-950 tabular-nums"
                data-testid="buy-total"
              >
                {figures.total}
              </dd>
            </div>
          </dl>
          {checkout.isError && (
            <Alert tone="error" data-testid="payment-error">
              {isApiError(checkout.error) &&
              checkout.error.code === "payments_disabled"
                ? t("credits.payment.disabled.title")
                : t("credits.payment.checkoutError")}
            </Alert>
          )}
        </div>
      )}
    </Dialog>
  );
}
