import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { QUESTION_MAX_LENGTH, type TLanguage } from '../../../../contract/constants.js';
import { Button } from '../../../components/button';
import { PlusIcon } from '../../../components/icons';
import { TextArea } from '../../../components/text-area';
import { cn } from '../../../lib/cn';

const ZQuestionForm = z.object({ text_en: z.string(), text_fr: z.string() });
type TQuestionForm = z.infer<typeof ZQuestionForm>;
type TextField = keyof TQuestionForm;

/** The texts saved: trimmed, each at most QUESTION_MAX_LENGTH characters, empty where there is none; never both empty. */
export interface QuestionFormTexts {
  text_en: string;
  text_fr: string;
}

export interface QuestionFormProps {
  /** The texts of the question being edited; absent when adding. */
  initialTexts?: { text_en: string | null; text_fr: string | null } | undefined;
  editing: boolean;
  pending: boolean;
  /** Resolves true when saved. */
  onSave: (texts: QuestionFormTexts) => Promise<boolean>;
  onCancel: () => void;
}

/**
 * Past this many characters the field's hint says that a long question is hard to answer in 20
 * seconds (issue 27; decision 159). A gentle word, not a limit: the limit is QUESTION_MAX_LENGTH.
 */
export const QUESTION_LONG_LENGTH = 150;

/** The id of the first text area, so other parts of the screen can focus it. */
export const QUESTION_TEXT_ID = 'question-text';

const FIELDS: Record<TLanguage, TextField> = { en: 'text_en', fr: 'text_fr' };

/**
 * Add or edit a question (spec §2, §4, §5; decision 165): a 3-row text area per language, the
 * interface's language first. Either may be empty, not both (said under the first field); more than
 * 500 characters is refused before sending; past 150, the field's hint says that a long question is
 * hard to answer in 20 seconds. Editing switches the title and button to edit/update and shows Cancel.
 * Remount it (key) to switch between questions.
 * Test ids: `question-form`, `question-text-input` (the first field), `question-submit`,
 * `question-cancel`; each field also has `data-field="question-text-en|fr"`.
 */
export function QuestionForm({ initialTexts, editing, pending, onSave, onCancel }: QuestionFormProps) {
  const { t, i18n } = useTranslation();
  const first: TLanguage = i18n.language === 'fr' ? 'fr' : 'en';
  const order: TLanguage[] = first === 'fr' ? ['fr', 'en'] : ['en', 'fr'];
  const {
    register,
    handleSubmit,
    control,
    reset,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm<TQuestionForm>({
    resolver: zodResolver(ZQuestionForm),
    defaultValues: { text_en: initialTexts?.text_en ?? '', text_fr: initialTexts?.text_fr ?? '' },
  });
  const values = useWatch({ control });
  const lengthOf = (field: TextField) => (values[field] ?? '').trim().length;

  const onSubmit = handleSubmit(async (form) => {
    const texts = { text_en: form.text_en.trim(), text_fr: form.text_fr.trim() };
    if (!texts.text_en && !texts.text_fr) {
      setError(FIELDS[first], { message: t('questions.form.required') });
      return;
    }
    let refused = false;
    for (const field of ['text_en', 'text_fr'] as const) {
      if (texts[field].length > QUESTION_MAX_LENGTH) {
        setError(field, { message: t('questions.form.tooLong', { max: QUESTION_MAX_LENGTH }) });
        refused = true;
      }
    }
    if (refused) return;
    const saved = await onSave(texts);
    if (saved && !editing) reset({ text_en: '', text_fr: '' });
  });

  const textArea = (lang: TLanguage, index: number) => {
    const name = FIELDS[lang];
    const length = lengthOf(name);
    const tooLong = length > QUESTION_MAX_LENGTH;
    const long = length > QUESTION_LONG_LENGTH && !tooLong;
    const field = register(name, {
      onChange: () => {
        if (errors.text_en) clearErrors('text_en');
        if (errors.text_fr) clearErrors('text_fr');
      },
    });
    return (
      <TextArea
        key={lang}
        {...field}
        id={index === 0 ? QUESTION_TEXT_ID : `${QUESTION_TEXT_ID}-${lang}`}
        lang={lang}
        autoFocus={editing && index === 0}
        label={lang === 'en' ? t('questions.form.labelEn') : t('questions.form.labelFr')}
        placeholder={lang === 'en' ? t('questions.form.placeholderEn') : t('questions.form.placeholderFr')}
        rows={3}
        hint={
          long ? (
            <span className="text-pending-800" data-testid="question-long-hint">
              {t('questions.form.longHint')}
            </span>
          ) : undefined
        }
        error={errors[name]?.message}
        data-testid={index === 0 ? 'question-text-input' : undefined}
        data-language={lang}
        data-field={`question-text-${lang}`}
        onKeyDown={(event) => {
          // Ctrl/Cmd+Enter saves, as in most editors.
          if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) void onSubmit();
        }}
        aside={
          <span className={cn('ml-auto shrink-0 tabular-nums', tooLong && 'font-medium text-error-700')} aria-live="polite">
            {t('questions.form.count', { count: length, max: QUESTION_MAX_LENGTH })}
          </span>
        }
      />
    );
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate data-testid="question-form" data-mode={editing ? 'edit' : 'add'}>
      <h2 className="text-base font-semibold text-gray-950">
        {editing ? t('questions.form.editTitle') : t('questions.form.addTitle')}
      </h2>
      <p className="mt-1 text-sm text-gray-500" id="question-languages-hint">
        {t('questions.form.hint')} {t('questions.form.languagesHint')}
      </p>
      <div className="mt-4 grid gap-4 lg:grid-cols-2">{order.map((lang, index) => textArea(lang, index))}</div>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        {editing && (
          <Button variant="secondary" onClick={onCancel} disabled={pending} data-testid="question-cancel">
            {t('dashboard.common.cancel')}
          </Button>
        )}
        <Button
          type="submit"
          loading={pending}
          data-testid="question-submit"
          leadingIcon={editing ? undefined : <PlusIcon className="size-4" />}
        >
          {editing ? t('questions.form.update') : t('questions.form.save')}
        </Button>
      </div>
    </form>
  );
}
