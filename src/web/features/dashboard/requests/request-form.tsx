import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { EMAIL_PATTERN, TEXT_LIMITS } from '../../../../contract/api/common.js';
import type { TQuestion } from '../../../../contract/api/questions.schema.js';
import { questionTextIn } from '../../../../contract/question-text.js';
import { REQUEST_EXPIRY_LIMITS } from '../../../../contract/api/requests.schema.js';
import type { TRequestDelivery, TSendRequestBody } from '../../../../contract/api/requests.schema.js';
import type { TTestimonialRequestSafe } from '../../../../contract/api/testimonials.schema.js';
import { REQUEST_LANGUAGES } from '../../../../contract/constants.js';
import type { TRequestLanguage } from '../../../../contract/constants.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Checkbox } from '../../../components/checkbox';
import { ConfirmDialog } from '../../../components/dialog';
import { ErrorState } from '../../../components/error-state';
import { EyeIcon, LinkIcon, SendIcon } from '../../../components/icons';
import { SelectField } from '../../../components/select-field';
import { Skeleton } from '../../../components/skeleton';
import { TextField } from '../../../components/text-field';
import { useLanguage } from '../../../i18n/use-language';
import { paths } from '../../../lib/paths';
import { useSendRequestMutation } from '../api/send-request';
import { DeliveryChoice } from './delivery-choice';
import { requestLanguageFor } from './request-language';
import { RequestPreviewDialog } from './request-preview-dialog';

/** The translation keys of the form's field errors. */
const FIELD_ERRORS = {
  nameTooLong: 'requests.form.errors.nameTooLong',
  invalidEmail: 'requests.form.errors.invalidEmail',
  positionTooLong: 'requests.form.errors.positionTooLong',
  giftTooLong: 'requests.form.errors.giftTooLong',
  expiry: 'requests.form.errors.expiry',
} as const;
type TFieldError = (typeof FIELD_ERRORS)[keyof typeof FIELD_ERRORS];

const ZRequestForm = z.object({
  customer_name: z.string().refine((v) => v.trim().length <= TEXT_LIMITS.personName, FIELD_ERRORS.nameTooLong),
  customer_email: z.string().refine((v) => !v.trim() || EMAIL_PATTERN.test(v.trim()), FIELD_ERRORS.invalidEmail),
  customer_position: z.string().refine((v) => v.trim().length <= TEXT_LIMITS.position, FIELD_ERRORS.positionTooLong),
  language: z.enum(REQUEST_LANGUAGES),
  gift: z.string().refine((v) => v.trim().length <= TEXT_LIMITS.gift, FIELD_ERRORS.giftTooLong),
  expires_in_days: z
    .number({ error: FIELD_ERRORS.expiry })
    .int(FIELD_ERRORS.expiry)
    .min(REQUEST_EXPIRY_LIMITS.min, FIELD_ERRORS.expiry)
    .max(REQUEST_EXPIRY_LIMITS.max, FIELD_ERRORS.expiry),
});
type TRequestForm = z.infer<typeof ZRequestForm>;

const defaults = (language: TRequestLanguage): TRequestForm => ({
  customer_name: '',
  customer_email: '',
  customer_position: '',
  language,
  gift: '',
  expires_in_days: REQUEST_EXPIRY_LIMITS.default,
});

export interface RequestFormProps {
  companyName: string;
  questions: readonly TQuestion[] | undefined;
  questionsLoading: boolean;
  questionsError: boolean;
  onRetryQuestions: () => void;
  /** The request went out or its link was made (the screen shows the success message or the link, and the list). */
  onSent: (request: TTestimonialRequestSafe) => void;
}

/**
 * The new-request form (spec §2, §4, §5): how the link goes (by our e-mail, or copied by the company:
 * issue 27, item 11), customer name required, e-mail required for e-mail delivery, position optional,
 * language, optional gift, expiry in days (1–365, 30 by default) and the questions, all selected once
 * loaded. Missing data shows requests.validationError; otherwise a confirmation dialog names the
 * customer before anything is sent. Test ids: `request-form`, `request-question` checkboxes,
 * `request-validation-error`, `request-preview`, `request-send`, `send-request-dialog`.
 */
export function RequestForm({
  companyName,
  questions,
  questionsLoading,
  questionsError,
  onRetryQuestions,
  onSent,
}: RequestFormProps) {
  const { t } = useTranslation();
  const { language: interfaceLanguage } = useLanguage();
  const send = useSendRequestMutation();
  /** null: every question (the default once loaded); otherwise the ids the person kept. */
  const [selection, setSelection] = useState<ReadonlySet<string> | null>(null);
  const [formError, setFormError] = useState(false);
  const [confirming, setConfirming] = useState<TSendRequestBody | null>(null);
  const [previewOpen, setPreviewOpen] = useState(false);
  /** 'link': the company copies the link and sends it itself; the e-mail is optional (decision 173). */
  const [delivery, setDelivery] = useState<TRequestDelivery>('email');
  const byLink = delivery === 'link';

  const {
    register,
    handleSubmit,
    reset,
    control,
    setValue,
    getFieldState,
    formState: { errors },
  } = useForm<TRequestForm>({
    resolver: zodResolver(ZRequestForm),
    defaultValues: defaults(requestLanguageFor(interfaceLanguage)),
  });

  // The language follows the interface language until the person picks one.
  useEffect(() => {
    if (!getFieldState('language').isDirty) setValue('language', requestLanguageFor(interfaceLanguage));
  }, [interfaceLanguage, getFieldState, setValue]);

  const ordered = questions ?? [];
  const selectedIds = ordered.filter((q) => (selection ? selection.has(q.id) : true)).map((q) => q.id);
  const selectedQuestions = ordered.filter((q) => selectedIds.includes(q.id));
  const hasQuestions = ordered.length > 0;
  const allSelected = hasQuestions && selectedIds.length === ordered.length;

  const toggle = (id: string, checked: boolean) => {
    const next = new Set(selectedIds);
    if (checked) next.add(id);
    else next.delete(id);
    setSelection(next);
    if (formError) setFormError(false);
  };

  const fieldError = (message: string | undefined) => (message ? t(message as TFieldError) : undefined);

  const onSubmit = handleSubmit((values) => {
    const name = values.customer_name.trim();
    const email = values.customer_email.trim();
    if (!name || (!byLink && !email) || selectedIds.length === 0) {
      setFormError(true);
      return;
    }
    setFormError(false);
    setConfirming({
      delivery,
      customer_name: name,
      customer_email: email || null,
      customer_position: values.customer_position.trim() || null,
      question_ids: selectedIds,
      language: values.language,
      gift: values.gift.trim() || null,
      expires_in_days: values.expires_in_days,
    });
  });

  const onConfirm = () => {
    if (!confirming || send.isPending) return;
    send.mutate(confirming, {
      onSuccess: ({ testimonial }) => {
        // Spec §4: the form and the selection clear (back to every question selected).
        reset(defaults(requestLanguageFor(interfaceLanguage)));
        setSelection(null);
        onSent(testimonial);
      },
      onError: (error) => {
        console.warn('Sending the request failed.', error);
        toast.error(t('requests.sendError'));
      },
      onSettled: () => setConfirming(null),
    });
  };

  const watched = useWatch({ control });
  const languageOptions = REQUEST_LANGUAGES.map((value) => ({ value, label: t(`requests.form.languages.${value}`) }));

  let questionPicker;
  if (questionsLoading) {
    questionPicker = (
      <div className="flex flex-col gap-3" aria-hidden="true">
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-5 w-1/2" />
      </div>
    );
  } else if (questionsError) {
    questionPicker = <ErrorState message={t('requests.loadQuestionsError')} onRetry={onRetryQuestions} className="py-6" />;
  } else if (!hasQuestions) {
    questionPicker = (
      <Alert tone="warning" data-testid="request-no-questions">
        {t('requests.form.noQuestions')}{' '}
        <Link to={paths.dashboard.questions} className="font-medium underline underline-offset-2">
          {t('requests.form.writeQuestions')}
        </Link>
      </Alert>
    );
  } else {
    questionPicker = (
      <ol className="flex flex-col gap-2.5">
        {ordered.map((question, index) => (
          <li key={question.id} className="flex items-start gap-2">
            <span className="mt-0.5 w-5 shrink-0 text-right text-xs text-gray-500 tabular-nums">{index + 1}.</span>
            <Checkbox
              className="min-w-0 items-start [&_input]:mt-0.5 [&_label]:break-words"
              label={questionTextIn(question, watched.language === 'french' ? 'fr' : 'en')}
              checked={selectedIds.includes(question.id)}
              onChange={(event) => toggle(question.id, event.target.checked)}
              data-testid="request-question"
              data-id={question.id}
            />
          </li>
        ))}
      </ol>
    );
  }

  return (
    <>
      <form onSubmit={(event) => void onSubmit(event)} noValidate data-testid="request-form">
        <DeliveryChoice
          value={delivery}
          onChange={(value) => {
            setDelivery(value);
            if (formError) setFormError(false);
          }}
        />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField
            label={t('requests.form.name')}
            autoComplete="off"
            required
            aria-required="true"
            error={fieldError(errors.customer_name?.message)}
            {...register('customer_name', { onChange: () => formError && setFormError(false) })}
          />
          <TextField
            label={t('requests.form.email')}
            type="email"
            autoComplete="off"
            required={!byLink}
            aria-required={byLink ? undefined : 'true'}
            hint={byLink ? t('requests.form.emailOptional') : undefined}
            error={fieldError(errors.customer_email?.message)}
            {...register('customer_email', { onChange: () => formError && setFormError(false) })}
          />
          <TextField
            label={t('requests.form.position')}
            hint={t('requests.form.optional')}
            autoComplete="off"
            error={fieldError(errors.customer_position?.message)}
            {...register('customer_position')}
          />
          <SelectField
            label={t('requests.form.language')}
            hint={t('requests.form.languageHint')}
            options={languageOptions}
            {...register('language')}
          />
          <TextField
            label={t('requests.form.expiry')}
            type="number"
            inputMode="numeric"
            min={REQUEST_EXPIRY_LIMITS.min}
            max={REQUEST_EXPIRY_LIMITS.max}
            step={1}
            hint={t('requests.form.expiryHint', { min: REQUEST_EXPIRY_LIMITS.min, max: REQUEST_EXPIRY_LIMITS.max })}
            error={fieldError(errors.expires_in_days?.message)}
            {...register('expires_in_days', { valueAsNumber: true })}
          />
          <TextField
            label={t('requests.form.gift')}
            placeholder={t('requests.form.giftPlaceholder')}
            hint={t('requests.form.giftHint')}
            autoComplete="off"
            error={fieldError(errors.gift?.message)}
            {...register('gift')}
          />
        </div>

        <fieldset className="mt-6">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <legend className="text-sm font-medium text-gray-900">{t('requests.form.questions')}</legend>
            {hasQuestions && (
              <button
                type="button"
                className="text-sm font-medium text-brand-700 hover:text-brand-800"
                onClick={() => setSelection(allSelected ? new Set() : null)}
              >
                {allSelected ? t('requests.form.selectNone') : t('requests.form.selectAll')}
              </button>
            )}
          </div>
          <p className="mt-1 mb-3 text-sm text-gray-500">
            {t('requests.form.questionsHint', { count: selectedIds.length, total: ordered.length })}
          </p>
          {questionPicker}
        </fieldset>

        {formError && (
          <Alert tone="error" className="mt-6" data-testid="request-validation-error">
            {t('requests.validationError')}
          </Alert>
        )}

        <div className="mt-6 flex flex-col-reverse gap-2 border-t border-gray-100 pt-4 sm:flex-row sm:justify-end">
          <Button
            variant="secondary"
            onClick={() => setPreviewOpen(true)}
            disabled={!hasQuestions}
            leadingIcon={<EyeIcon className="size-4" />}
            data-testid="request-preview"
          >
            {t('requests.form.preview')}
          </Button>
          <Button
            type="submit"
            disabled={!hasQuestions}
            loading={send.isPending}
            leadingIcon={byLink ? <LinkIcon className="size-4" /> : <SendIcon className="size-4" />}
            data-testid="request-send"
          >
            {byLink ? t('requests.form.create') : t('requests.form.send')}
          </Button>
        </div>
      </form>

      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open && !send.isPending) setConfirming(null);
        }}
        title={confirming?.delivery === 'link' ? t('requests.confirm.linkTitle') : t('requests.confirm.title')}
        description={confirming?.delivery === 'link' ? t('requests.confirm.linkDescription') : t('requests.confirm.description')}
        confirmLabel={confirming?.delivery === 'link' ? t('requests.confirm.create') : t('requests.confirm.send')}
        pending={send.isPending}
        onConfirm={onConfirm}
        data-testid="send-request-dialog"
      >
        {confirming && (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-control border border-gray-200 bg-gray-50 px-4 py-3 text-sm">
            <dt className="text-gray-500">{t('requests.form.name')}</dt>
            <dd className="font-medium break-words text-gray-900" data-testid="confirm-name">
              {confirming.customer_name}
            </dd>
            <dt className="text-gray-500">{t('requests.form.email')}</dt>
            <dd className="font-medium break-all text-gray-900" data-testid="confirm-email">
              {confirming.customer_email || <span className="font-normal text-gray-500">{t('requests.confirm.noEmail')}</span>}
            </dd>
            <dt className="text-gray-500">{t('requests.form.questions')}</dt>
            <dd className="text-gray-900 tabular-nums">{confirming.question_ids.length}</dd>
          </dl>
        )}
      </ConfirmDialog>

      <RequestPreviewDialog
        open={previewOpen}
        onOpenChange={setPreviewOpen}
        companyName={companyName}
        customerName={(watched.customer_name ?? '').trim()}
        questions={selectedQuestions}
        gift={(watched.gift ?? '').trim()}
        language={watched.language ?? 'english'}
        expiresInDays={
          typeof watched.expires_in_days === 'number' && Number.isFinite(watched.expires_in_days)
            ? watched.expires_in_days
            : REQUEST_EXPIRY_LIMITS.default
        }
      />
    </>
  );
}
