import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { TQuestion } from "../../../../contract/api/questions.schema.js";
import type { TRequestLanguage } from "../../../../contract/constants.js";
import { questionTextIn } from "../../../../contract/question-text.js";
import { Button } from "../../../components/button";
import { Dialog } from "../../../components/dialog";
import { GiftIcon } from "../../../components/icons";
import { Spinner } from "../../../components/spinner";
import { useFixedT } from "../../../i18n/use-fixed-t";

export interface RequestPreviewDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  companyName: string;
  /** As typed so far (may be empty). */
  customerName: string;
  /** The selected questions, in their order. */
  questions: readonly TQuestion[];
  gift: string;
  /** The request's language: the preview speaks it, as the invitation will. */
  language: TRequestLanguage;
  expiresInDays: number;
}

/**
 * What the customer will see (spec §2 'a preview modal'): the company, the invitation's words in the
 * request's language, the selected questions in order and the gift. Test id: `preview-dialog`.
 */
export function RequestPreviewDialog({
  open,
  onOpenChange,
  companyName,
  customerName,
  questions,
  gift,
  language,
  expiresInDays,
}: RequestPreviewDialogProps) {
  const { t } = useTranslation();
  const lang = language === "french" ? "fr" : "en";
  // The request's language may not be the interface's: its catalogue is fetched first (never a key shown).
  const tc = useFixedT(lang);

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("requests.preview.title")}
      description={t("requests.preview.description")}
      size="lg"
      data-testid="preview-dialog"
      footer={
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          {t("dashboard.common.close")}
        </Button>
      }
    >
      {tc ? (
        <PreviewContent
          tc={tc}
          lang={lang}
          companyName={companyName}
          customerName={customerName}
          questions={questions}
          gift={gift}
          expiresInDays={expiresInDays}
        />
      ) : (
        <div
          className="flex min-h-40 items-center justify-center gap-2 text-sm text-gray-500"
          role="status"
          data-testid="preview-loading"
        >
          <Spinner />
          {t("common.loading")}
        </div>
      )}
    </Dialog>
  );
}

/** The invitation's words, in the request's language. */
function PreviewContent({
  tc,
  lang,
  companyName,
  customerName,
  questions,
  gift,
  expiresInDays,
}: Pick<
  RequestPreviewDialogProps,
  "companyName" | "customerName" | "questions" | "gift" | "expiresInDays"
> & { tc: TFunction; lang: "en" | "fr" }) {
  const company = companyName || tc("requests.preview.companyFallback");
  return (
    <div
      lang={lang}
      className="rounded-card border border-gray-200 bg-gray-50 p-4 sm:p-6"
      data-testid="preview-content"
    >
      <p
        className="text-xs font-semibold tracking-wide text-gray-500 uppercase"
        data-testid="preview-company"
      >
        {company}
      </p>
      <h3 className="mt-2 text-lg font-semibold text-gray-950">
        {customerName
          ? tc("requests.preview.greeting", { name: customerName })
          : tc("requests.preview.greetingAnonymous")}
      </h3>
      <p className="mt-2 text-sm text-gray-700">
        {tc("requests.preview.intro", { company })}
      </p>

      <p className="mt-5 text-xs font-medium text-gray-500">
        {tc("requests.preview.questionsTitle", { count: questions.length })}
      </p>
      <ol className="mt-2 flex flex-col gap-2" data-testid="preview-questions">
        {questions.map((question, index) => (
          <li
            key={question.id}
            className="flex gap-3 rounded-control border border-gray-200 bg-white px-3 py-2.5 text-sm"
          >
            <span className="shrink-0 font-medium text-brand-700 tabular-nums">
              {index + 1}
            </span>
            <span className="min-w-0 break-words text-gray-900">
              {questionTextIn(question, lang)}
            </span>
          </li>
        ))}
      </ol>

      {gift && (
        <div
          className="mt-5 flex gap-3 rounded-control border border-brand-200 bg-brand-50 px-3 py-3 text-sm"
          data-testid="preview-gift"
        >
          <GiftIcon className="mt-0.5 size-5 shrink-0 text-brand-700" />
          <div className="min-w-0">
            <p className="font-medium text-brand-900">
              {tc("requests.preview.giftTitle")}
            </p>
            <p className="mt-0.5 break-words whitespace-pre-wrap text-brand-900">
              {gift}
            </p>
          </div>
        </div>
      )}

      <div className="mt-6 flex flex-col items-start gap-2">
        <span
          className="inline-flex h-10 items-center rounded-control bg-brand-700 px-4 text-sm font-medium text-white"
          aria-hidden="true"
        >
          {tc("requests.preview.cta")}
        </span>
        <p className="text-xs text-gray-500">
          {tc("requests.preview.expiry", { count: expiresInDays })}
        </p>
      </div>
    </div>
  );
}
