import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { toast } from "react-toastify";
import { CREDITS_PER_VIEW } from "../../../../contract/constants.js";
import type { TTestimonialRequestSafe } from "../../../../contract/api/testimonials.schema.js";
import { Alert } from "../../../components/alert";
import { Button, ButtonLink } from "../../../components/button";
import { Dialog } from "../../../components/dialog";
import { CoinsIcon } from "../../../components/icons";
import { creditForm } from "../../../lib/credits";
import { paths } from "../../../lib/paths";
import {
  isNoCreditsError,
  usePayTestimonialMutation,
} from "../api/pay-testimonial";

export interface PayToViewDialogProps {
  /** The testimonial to unlock; null closes the dialog. */
  testimonial: TTestimonialRequestSafe | null;
  companyId: string;
  /** The balance, when known: at 0 the dialog says so at once instead of offering to pay. */
  credits: number | undefined;
  onClose: () => void;
}

/**
 * Pay to view (spec §2, §4): says one credit will be debited, then makes the pay call; the list, the
 * stats (header balance) and the transactions reload, and the testimonial paid for opens (issue 27:
 * it was paid for to be watched). With no credits left it shows the no-credits
 * message and a link to the payment screen. Other failures are logged (§8) and explained in the
 * dialog, which stays open to try again. Test ids: `pay-dialog`, `pay-confirm`, `pay-no-credits`,
 * `pay-buy-credits`.
 */
export function PayToViewDialog({
  testimonial,
  companyId,
  credits,
  onClose,
}: PayToViewDialogProps) {
  const { t } = useTranslation();
  const pay = usePayTestimonialMutation();
  const navigate = useNavigate();
  const noCredits =
    (credits !== undefined && credits < CREDITS_PER_VIEW) ||
    isNoCreditsError(pay.error);
  const failed = pay.isError && !isNoCreditsError(pay.error);

  const close = () => {
    if (pay.isPending) return;
    pay.reset();
    onClose();
  };

  const onConfirm = () => {
    if (!testimonial || pay.isPending) return;
    pay.mutate(
      { id: testimonial.id, companyId },
      {
        onSuccess: () => {
          toast.success(
            t("credits.testimonials.pay.success", {
              name: testimonial.customer_name,
            }),
          );
          pay.reset();
          onClose();
          void navigate(paths.dashboard.testimonial(testimonial.id));
        },
        onError: (error) => {
          console.warn("Paying to view the testimonial failed.", error);
        },
      },
    );
  };

  const creditLabel = (count: number) =>
    t(`credits.payment.creditCount.${creditForm(count)}`, { count });

  return (
    <Dialog
      open={testimonial !== null}
      onOpenChange={(open) => {
        if (!open) close();
      }}
      title={t("credits.testimonials.pay.title")}
      description={
        testimonial
          ? t("credits.testimonials.pay.description", {
              name: testimonial.customer_name,
            })
          : undefined
      }
      size="sm"
      busy={pay.isPending}
      data-testid="pay-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={pay.isPending}>
            {t("dashboard.common.cancel")}
          </Button>
          {noCredits ? (
            <ButtonLink
              to={paths.dashboard.payment}
              leadingIcon={<CoinsIcon className="size-4" />}
              data-testid="pay-buy-credits"
            >
              {t("credits.testimonials.pay.buyCredits")}
            </ButtonLink>
          ) : (
            <Button
              onClick={onConfirm}
              loading={pay.isPending}
              data-testid="pay-confirm"
            >
              {t("credits.testimonials.pay.confirm")}
            </Button>
          )}
        </>
      }
    >
      {noCredits ? (
        <Alert
          tone="warning"
          title={t("credits.testimonials.pay.noCreditsTitle")}
          data-testid="pay-no-credits"
        >
          {t("credits.testimonials.pay.noCredits")}
        </Alert>
      ) : (
        <div className="flex flex-col gap-4">
          {credits !== undefined && (
            <dl className="divide-y divide-gray-100 rounded-control border border-gray-200 text-sm">
              <div className="flex items-center justify-between gap-4 px-4 py-2.5">
                <dt className="text-gray-600">
                  {t("credits.testimonials.pay.balance")}
                </dt>
                <dd className="font-medium text-gray-900 tabular-nums">
                  {creditLabel(credits)}
                </dd>
              </div>
              <div className="flex items-center justify-between gap-4 px-4 py-2.5">
                <dt className="text-gray-600">
                  {t("credits.testimonials.pay.after")}
                </dt>
                <dd className="font-medium text-gray-900 tabular-nums">
                  {creditLabel(credits - CREDITS_PER_VIEW)}
                </dd>
              </div>
            </dl>
          )}
          {failed && (
            <Alert tone="error" data-testid="pay-error">
              {t("credits.testimonials.pay.error")}
            </Alert>
          )}
        </div>
      )}
    </Dialog>
  );
}
