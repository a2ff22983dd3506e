import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TTestimonialRequestSafe } from "../../../../contract/api/testimonials.schema.js";
import { Alert } from "../../../components/alert";
import { Badge } from "../../../components/badge";
import { Button, ButtonLink } from "../../../components/button";
import { DataTable } from "../../../components/data-table";
import type { DataTableColumn } from "../../../components/data-table";
import { EmptyState } from "../../../components/empty-state";
import { ErrorState } from "../../../components/error-state";
import {
  EyeIcon,
  LockIcon,
  PlusIcon,
  RefreshIcon,
  VideoIcon,
} from "../../../components/icons";
import { PageHeader } from "../../../components/page-header";
import { Seo } from "../../../components/seo";
import { Skeleton } from "../../../components/skeleton";
import { useAuth } from "../../../lib/auth-context";
import { formatDate } from "../../../lib/format";
import { paths } from "../../../lib/paths";
import { useStats } from "../api/get-stats";
import { useRequests } from "../api/list-requests";
import { PayToViewDialog } from "./pay-to-view-dialog";
import { testimonialAction } from "./testimonial-action";
import { UnlockIcon } from "../../../components/icons";
import { useTestimonialPlays } from "../testimonial-detail/views-api";
import { ViewsCell } from "../testimonial-detail/views-cell";
import { ViaLink } from "../collection/via-link";
import { useRole } from "../../../lib/use-role";

function ListSkeleton() {
  return (
    <div
      className="flex flex-col gap-4 rounded-card border border-gray-200 bg-white p-4"
      aria-hidden="true"
      data-testid="testimonials-loading"
    >
      {[0, 1, 2, 3].map((row) => (
        <div key={row} className="flex items-center gap-4">
          <div className="flex flex-1 flex-col gap-1.5">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-3 w-28" />
          </div>
          <Skeleton className="hidden h-4 w-44 md:block" />
          <Skeleton className="h-5 w-20 rounded-full" />
          <Skeleton className="hidden h-4 w-20 md:block" />
          <Skeleton className="h-8 w-28" />
        </div>
      ))}
    </div>
  );
}

function StatusBadge({
  testimonial,
}: {
  testimonial: TTestimonialRequestSafe;
}) {
  const { t } = useTranslation();
  return (
    <Badge tone={testimonial.status} dot data-testid="testimonial-status">
      {t(`credits.testimonials.status.${testimonial.status}`)}
    </Badge>
  );
}

/**
 * The customer withdrew their consent (issue 29): said with its date under the status. Test id
 * `consent-withdrawn-marker`.
 */
function WithdrawnMarker({ at }: { at: string }) {
  const { t } = useTranslation();
  const date = formatDate(at);
  return (
    <Badge tone="error" data-testid="consent-withdrawn-marker" title={t("credits.testimonials.consentWithdrawnOn", { date })}>
      {t("credits.testimonials.consentWithdrawn")}
      <span className="tabular-nums">{date}</span>
    </Badge>
  );
}

/** The row's action (spec §4): view when paid, pay to view when completed, a disabled view otherwise. */
function RowAction({
  testimonial,
  onPay,
}: {
  testimonial: TTestimonialRequestSafe;
  /** Null for a viewer, who cannot spend a credit: the row opens the page that says why (issue 32). */
  onPay: (() => void) | null;
}) {
  const { t } = useTranslation();
  const name = testimonial.customer_name;
  const action = testimonialAction(testimonial);
  if (action === "view") {
    return (
      <ButtonLink
        to={paths.dashboard.testimonial(testimonial.id)}
        variant="secondary"
        size="sm"
        leadingIcon={<EyeIcon className="size-4" />}
        aria-label={t("credits.testimonials.viewLabel", { name })}
        data-testid="view-testimonial"
      >
        {t("credits.testimonials.view")}
      </ButtonLink>
    );
  }
  if (action === "pay" && !onPay) {
    return (
      <ButtonLink
        to={paths.dashboard.testimonial(testimonial.id)}
        variant="secondary"
        size="sm"
        leadingIcon={<LockIcon className="size-4" />}
        aria-label={t("credits.testimonials.viewLabel", { name })}
        data-testid="view-locked"
      >
        {t("credits.testimonials.view")}
      </ButtonLink>
    );
  }
  if (action === "pay") {
    return (
      <Button
        size="sm"
        leadingIcon={<LockIcon className="size-4" />}
        onClick={onPay ?? undefined}
        aria-label={t("credits.testimonials.payToViewLabel", { name })}
        data-testid="pay-to-view"
      >
        {t("credits.testimonials.payToView")}
      </Button>
    );
  }
  const reason = t(
    `credits.testimonials.unavailable.${testimonial.status === "expired" ? "expired" : "pending"}`,
    { name },
  );
  return (
    // The title explains on hover why the button is disabled; the label says it to screen readers.
    <span title={reason} className="inline-flex">
      <Button
        variant="secondary"
        size="sm"
        disabled
        leadingIcon={<EyeIcon className="size-4" />}
        aria-label={`${t("credits.testimonials.view")}: ${reason}`}
        data-testid="view-unavailable"
      >
        {t("credits.testimonials.view")}
      </Button>
    </span>
  );
}

/**
 * The testimonials list (spec §2, §4, §8): a table from 768 px and cards below, with customer,
 * e-mail, status, requested and expiry dates and the action of each state; refresh and 'request new';
 * loading, empty and error states. Test ids: `testimonials-list`, `testimonial-row` (data-id,
 * data-status, data-paid), `pay-to-view`, `view-testimonial`, `view-unavailable`,
 * `testimonials-refresh`, `testimonials-request-new`, `testimonials-empty`, `testimonials-error`.
 */
export function TestimonialsScreen() {
  const { t } = useTranslation();
  const { can } = useRole();
  const canPay = can("payTestimonial");
  const canSend = can("sendRequest");
  const { user } = useAuth();
  const companyId = user?.company_id ?? "";
  const list = useRequests(companyId);
  const stats = useStats(companyId);
  const plays = useTestimonialPlays(Boolean(companyId));
  const [paying, setPaying] = useState<TTestimonialRequestSafe | null>(null);
  const title = t("credits.testimonials.title");

  const columns: DataTableColumn<TTestimonialRequestSafe>[] = [
    {
      id: "customer",
      header: t("credits.testimonials.columns.customer"),
      card: "title",
      className: "max-w-56",
      cell: (row) => (
        <div className="min-w-0">
          <p className="flex items-center gap-1.5 font-medium text-gray-900">
            <span className="truncate" data-testid="testimonial-customer">
              {row.customer_name}
            </span>
            {row.paid && (
              <span
                className="inline-flex shrink-0 text-completed-700"
                title={t("credits.testimonials.unlocked")}
                data-testid="testimonial-unlocked"
              >
                <UnlockIcon className="size-3.5" />
                <span className="sr-only">
                  {t("credits.testimonials.unlocked")}
                </span>
              </span>
            )}
          </p>
          {row.customer_position && (
            <p className="truncate text-xs text-gray-500">
              {row.customer_position}
            </p>
          )}
          <ViaLink linkId={row.collection_link_id} />
        </div>
      ),
    },
    {
      id: "email",
      header: t("credits.testimonials.columns.email"),
      className: "max-w-60",
      cell: (row) => (
        <span
          className="block truncate text-gray-700"
          title={row.customer_email ?? undefined}
        >
          {row.customer_email ?? t("requests.list.linkOnly")}
        </span>
      ),
    },
    {
      id: "status",
      header: t("credits.testimonials.columns.status"),
      card: "badge",
      cell: (row) => (
        <span className="inline-flex flex-col items-start gap-1">
          <StatusBadge testimonial={row} />
          {row.consent_withdrawn_at && <WithdrawnMarker at={row.consent_withdrawn_at} />}
        </span>
      ),
    },
    {
      id: "requested",
      header: t("credits.testimonials.columns.requested"),
      className: "whitespace-nowrap",
      cell: (row) => formatDate(row.created_at),
    },
    {
      id: "expires",
      header: t("credits.testimonials.columns.expires"),
      className: "whitespace-nowrap",
      cell: (row) => (
        <span
          className={row.status === "pending" ? undefined : "text-gray-500"}
        >
          {formatDate(row.expires_at)}
        </span>
      ),
    },
    {
      id: "views",
      header: t("credits.testimonials.columns.views"),
      className: "whitespace-nowrap text-right tabular-nums",
      cell: (row) => <ViewsCell testimonial={row} plays={plays.data} />,
    },
    {
      id: "actions",
      header: t("credits.testimonials.columns.actions"),
      card: "actions",
      className: "text-right",
      cell: (row) => (
        <RowAction testimonial={row} onPay={canPay ? () => setPaying(row) : null} />
      ),
    },
  ];

  let body;
  if (list.isPending && Boolean(companyId)) {
    body = <ListSkeleton />;
  } else if (list.isError && !list.data) {
    body = (
      <ErrorState
        message={t("credits.testimonials.loadError")}
        onRetry={() => void list.refetch()}
        retrying={list.isFetching}
        data-testid="testimonials-error"
      />
    );
  } else if (!list.data || list.data.length === 0) {
    body = (
      <div
        className="rounded-card border border-gray-200 bg-white"
        data-testid="testimonials-empty"
      >
        <EmptyState
          icon={<VideoIcon className="size-6" />}
          title={t("credits.testimonials.emptyTitle")}
          description={
            <p className="text-sm">
              {t("credits.testimonials.emptyDescription")}
            </p>
          }
          action={
            canSend ? (
              <ButtonLink
                to={paths.dashboard.requests}
                leadingIcon={<PlusIcon className="size-4" />}
              >
                {t("credits.testimonials.emptyAction")}
              </ButtonLink>
            ) : undefined
          }
        />
      </div>
    );
  } else {
    body = (
      <>
        {list.isError && (
          <Alert
            tone="error"
            className="mb-4"
            data-testid="testimonials-error"
            action={
              <Button
                variant="secondary"
                size="sm"
                onClick={() => void list.refetch()}
                loading={list.isFetching}
              >
                {t("dashboard.common.retry")}
              </Button>
            }
          >
            {t("credits.testimonials.loadError")}
          </Alert>
        )}
        <DataTable
          columns={columns}
          rows={list.data}
          rowKey={(row) => row.id}
          caption={t("credits.testimonials.caption")}
          rowAttributes={(row) => ({
            "data-testid": "testimonial-row",
            "data-id": row.id,
            "data-status": row.status,
            "data-paid": String(row.paid),
          })}
          data-testid="testimonials-list"
        />
      </>
    );
  }

  return (
    <>
      <Seo
        title={title}
        description={t("credits.testimonials.description")}
        robots="noindex"
      />
      <PageHeader
        title={title}
        description={t("credits.testimonials.description")}
        actions={
          <>
            <Button
              variant="secondary"
              onClick={() => void list.refetch()}
              loading={list.isRefetching}
              disabled={!companyId}
              leadingIcon={<RefreshIcon className="size-4" />}
              data-testid="testimonials-refresh"
            >
              {t("credits.testimonials.refresh")}
            </Button>
            {canSend && (
              <ButtonLink
                to={paths.dashboard.requests}
                leadingIcon={<PlusIcon className="size-4" />}
                data-testid="testimonials-request-new"
              >
                {t("credits.testimonials.requestNew")}
              </ButtonLink>
            )}
          </>
        }
      />
      {body}
      <PayToViewDialog
        testimonial={paying}
        companyId={companyId}
        credits={stats.data?.credits}
        onClose={() => setPaying(null)}
      />
    </>
  );
}
