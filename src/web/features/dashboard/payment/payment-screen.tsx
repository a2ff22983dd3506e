import { useState } from "react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { CREDIT_PACKAGES } from "../../../../contract/constants.js";
import type { CreditPackage } from "../../../../contract/constants.js";
import { Alert } from "../../../components/alert";
import { Badge } from "../../../components/badge";
import { Button } from "../../../components/button";
import { Card } from "../../../components/card";
import { CoinsIcon } from "../../../components/icons";
import { PageHeader } from "../../../components/page-header";
import { Seo } from "../../../components/seo";
import { Skeleton } from "../../../components/skeleton";
import { useLanguage } from "../../../i18n/use-language";
import { useAppConfig } from "../../../lib/api/get-app-config";
import { useAuth } from "../../../lib/auth-context";
import { cn } from "../../../lib/cn";
import { creditForm } from "../../../lib/credits";
import { useStats } from "../api/get-stats";
import { BuyPackageDialog } from "./buy-package-dialog";
import { packageFigures } from "./package-display";
import { PaymentReturnBanner } from "./payment-return-banner";
import { PAYMENT_RETURN_PARAMS, readPaymentReturn } from "./payment-return";
import { ShieldCheckIcon } from "../../../components/icons";

function PackageCard({
  pkg,
  onBuy,
  disabled,
}: {
  pkg: CreditPackage;
  onBuy: () => void;
  /** Purchases are not available on this installation. */
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const name = t(`credits.payment.packages.${pkg.id}`);
  const figures = packageFigures(pkg, language);
  return (
    <li
      data-testid={`package-${pkg.id}`}
      data-featured={pkg.featured || undefined}
      className={cn(
        "relative flex flex-col rounded-card bg-white p-5",
        pkg.featured
          ? "border border-brand-600 ring-1 ring-brand-600"
          : "border border-gray-200",
      )}
    >
      {pkg.featured && (
        <Badge
          tone="brand"
          className="absolute -top-3 left-5"
          data-testid="package-recommended"
        >
          {t("credits.payment.recommended")}
        </Badge>
      )}
      {/* Phones: name and price side by side; wider: stacked. */}
      <div className="flex items-start justify-between gap-4 sm:block">
        <div className="min-w-0">
          <h3 className="text-base font-semibold text-gray-950">{name}</h3>
          <p className="mt-1 text-sm text-gray-600 tabular-nums">
            {t(`credits.payment.creditCount.${creditForm(pkg.credits)}`, {
              count: pkg.credits,
            })}
          </p>
        </div>
        <div className="text-right sm:mt-5 sm:text-left">
          <p
            className="text-2xl font-semibold tracking-tight whitespace-nowrap text-gray-950 tabular-nums"
            data-testid="package-total"
          >
            {figures.total}
          </p>
          <p className="mt-1 text-sm whitespace-nowrap text-gray-600 tabular-nums">
            {t("credits.payment.perVideo", { price: figures.unit })}
          </p>
        </div>
      </div>
      <div className="mt-4 flex min-h-6 flex-wrap content-start items-center gap-2 max-sm:empty:hidden sm:flex-1">
        {figures.discount && (
          <Badge tone="completed">
            {t("credits.payment.save", { percent: figures.discount })}
          </Badge>
        )}
      </div>
      <Button
        variant={pkg.featured ? "primary" : "secondary"}
        fullWidth
        className="mt-5"
        onClick={onBuy}
        disabled={disabled}
        aria-label={t("credits.payment.buyLabel", { name })}
        data-testid={`buy-${pkg.id}`}
      >
        {t("credits.payment.buy")}
      </Button>
    </li>
  );
}

/**
 * Buy credits (spec §2, §4, §8, §9): the balance, the packages with their prices in the interface
 * language (the recommended one marked), a confirmation dialog before the checkout, and the message of
 * the return from the checkout. An installation that sells no credits (production without Stripe keys)
 * says so instead, and its buy buttons are disabled. Test ids: `payment-balance`, `package-<id>`,
 * `buy-<id>`, `buy-confirm`, `payment-success`, `payment-cancel`, `payments-disabled`.
 */
export function PaymentScreen() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const companyId = user?.company_id ?? "";
  const stats = useStats(companyId);
  const [searchParams, setSearchParams] = useSearchParams();
  const [chosen, setChosen] = useState<CreditPackage | null>(null);
  const paymentReturn = readPaymentReturn(searchParams);
  const appConfig = useAppConfig().data;
  // Unknown (loading, error) counts as available: the server refuses a checkout it cannot make.
  const purchasesDisabled = appConfig?.payments === "disabled";
  const title = t("credits.payment.title");

  const dismissReturn = () => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const name of PAYMENT_RETURN_PARAMS) next.delete(name);
        return next;
      },
      { replace: true },
    );
  };

  const credits = stats.data?.credits;
  let balance: ReactNode;
  if (stats.isPending && Boolean(companyId))
    balance = <Skeleton className="h-6 w-48" />;
  else if (credits === undefined)
    balance = (
      <span className="text-gray-600">
        {t("credits.payment.balanceUnknown")}
      </span>
    );
  else
    balance = t(`credits.payment.balance.${creditForm(credits)}`, {
      count: credits,
    });

  return (
    <>
      <Seo
        title={title}
        description={t("credits.payment.description")}
        robots="noindex"
      />
      <PageHeader
        title={title}
        description={t("credits.payment.description")}
      />

      <PaymentReturnBanner
        paymentReturn={paymentReturn}
        companyId={companyId}
        onDismiss={dismissReturn}
      />

      <Card padding="none" className="mb-8 flex items-center gap-4 p-5">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <CoinsIcon className="size-5" />
        </span>
        <div className="min-w-0">
          <div
            className="text-base font-semibold text-gray-950 tabular-nums"
            data-testid="payment-balance"
          >
            {balance}
          </div>
          <p className="mt-0.5 text-sm text-gray-600">
            {t("credits.payment.balanceHint")}
          </p>
        </div>
      </Card>

      {purchasesDisabled && (
        <Alert
          tone="warning"
          className="mb-8"
          title={t("credits.payment.disabled.title")}
          data-testid="payments-disabled"
        >
          {t("credits.payment.disabled.body", {
            email: appConfig?.supportEmail ?? "",
          })}
        </Alert>
      )}

      <section aria-labelledby="packages-title">
        <h2
          id="packages-title"
          className="mb-6 text-base font-semibold text-gray-950"
        >
          {t("credits.payment.packagesTitle")}
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
          {CREDIT_PACKAGES.map((pkg) => (
            <PackageCard
              key={pkg.id}
              pkg={pkg}
              onBuy={() => setChosen(pkg)}
              disabled={purchasesDisabled}
            />
          ))}
        </ul>
        {!purchasesDisabled && (
          <p className="mt-6 flex items-start gap-2 text-sm text-gray-600">
            <ShieldCheckIcon className="mt-px size-4 shrink-0 text-gray-500" />
            {t("credits.payment.secure")}
          </p>
        )}
      </section>

      <BuyPackageDialog pkg={chosen} onClose={() => setChosen(null)} />
    </>
  );
}
