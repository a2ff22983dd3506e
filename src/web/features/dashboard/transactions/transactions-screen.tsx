import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { TTransaction } from "../../../../contract/api/payment.schema.js";
import { TRANSACTION_TYPES } from "../../../../contract/api/payment.schema.js";
import { DataTable } from "../../../components/data-table";
import type { DataTableColumn } from "../../../components/data-table";
import { EmptyState } from "../../../components/empty-state";
import { ErrorState } from "../../../components/error-state";
import { PageHeader } from "../../../components/page-header";
import { Seo } from "../../../components/seo";
import { Skeleton } from "../../../components/skeleton";
import { formatDate, intlLocale } from "../../../lib/format";
import { useTransactions } from "../api/list-transactions";

/** Spec §9: credit purchases are in minor units (amount / 100, 2 decimals); other types as is. */
export function formatTransactionAmount(
  transaction: TTransaction,
  lang: string,
): string {
  if (transaction.transaction_type === TRANSACTION_TYPES.creditPurchase) {
    return new Intl.NumberFormat(intlLocale(lang), {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(transaction.amount / 100);
  }
  return String(transaction.amount);
}

function typeKey(type: string): "purchase" | "payment" | "bonus" {
  if (type === TRANSACTION_TYPES.creditPurchase) return "purchase";
  if (type === TRANSACTION_TYPES.signupCredits) return "bonus";
  return "payment";
}

export function TransactionsScreen() {
  const { t, i18n } = useTranslation();
  const query = useTransactions();
  const title = t("transactions.title");

  const columns: DataTableColumn<TTransaction>[] = [
    {
      id: "type",
      header: t("transactions.columns.type"),
      card: "title",
      cell: (row) => (
        <span className="font-medium text-gray-900">
          {t(`transactions.types.${typeKey(row.transaction_type)}`)}
        </span>
      ),
    },
    {
      id: "amount",
      header: t("transactions.columns.amount"),
      cell: (row) => formatTransactionAmount(row, i18n.language),
    },
    {
      id: "currency",
      header: t("transactions.columns.currency"),
      cell: (row) =>
        row.transaction_type === TRANSACTION_TYPES.creditPurchase
          ? row.currency.toUpperCase()
          : t("transactions.credits"),
    },
    {
      id: "date",
      header: t("transactions.columns.date"),
      cell: (row) => formatDate(row.date),
    },
    {
      id: "testimonial",
      header: t("transactions.columns.testimonial"),
      cell: (row) =>
        row.testimonial ? (
          <Link
            className="text-primary-700 underline"
            to={`/dashboard/testimonials/${row.testimonial.id}`}
          >
            {row.testimonial.customer_name}
          </Link>
        ) : (
          "—"
        ),
    },
  ];

  return (
    <>
      <Seo
        title={title}
        description={t("transactions.description")}
        robots="noindex"
      />
      <PageHeader title={title} description={t("transactions.description")} />
      {query.isPending ? (
        <div className="flex flex-col gap-3">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : query.isError ? (
        <ErrorState
          message={t("transactions.loadError")}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : query.data.length === 0 ? (
        <EmptyState
          title={t("transactions.emptyTitle")}
          description={t("transactions.emptyDescription")}
        />
      ) : (
        <DataTable
          columns={columns}
          rows={query.data}
          rowKey={(row) => row.id}
          caption={title}
          rowAttributes={(row) => ({
            "data-testid": "transaction-row",
            "data-type": row.transaction_type,
          })}
          data-testid="transactions-list"
        />
      )}
    </>
  );
}
