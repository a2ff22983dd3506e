import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { QUESTION_MAX_LENGTH } from '../../../../contract/constants.js';
import { Button } from '../../../components/button';
import { PlusIcon } from '../../../components/icons';
import { TextArea } from '../../../components/text-area';
import { cn } from '../../../lib/cn';

const ZQuestionForm = z.object({ text: z.string() });
type TQuestionForm = z.infer<typeof ZQuestionForm>;

export interface QuestionFormProps {
  /** The text of the question being edited; absent when adding. */
  initialText?: string;
  editing: boolean;
  pending: boolean;
  /** The trimmed text, at most QUESTION_MAX_LENGTH characters. Resolves true when saved. */
  onSave: (text: string) => Promise<boolean>;
  onCancel: () => void;
}

/**
 * Past this many characters the field's hint says that a long question is hard to answer in 20
 * seconds (issue 27; decision 159). A gentle word, not a limit: the limit is QUESTION_MAX_LENGTH.
 */
export const QUESTION_LONG_LENGTH = 150;

/** The id of the text area, so other parts of the screen can focus it. */
export const QUESTION_TEXT_ID = 'question-text';

/**
 * Add or edit a question (spec §2, §4, §5): a 3-row text area with its hint; blank text is silently
 * ignored; more than 500 characters is refused before sending; past 150, the hint says that a long
 * question is hard to answer in 20 seconds. Editing switches the title and button
 * to edit/update and shows Cancel. Remount it (key) to switch between questions.
 * Test ids: `question-form`, `question-text-input`, `question-submit`, `question-cancel`.
 */
export function QuestionForm({ initialText = '', editing, pending, onSave, onCancel }: QuestionFormProps) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    control,
    reset,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm<TQuestionForm>({ resolver: zodResolver(ZQuestionForm), defaultValues: { text: initialText } });
  const length = useWatch({ control, name: 'text' }).trim().length;
  const tooLong = length > QUESTION_MAX_LENGTH;
  const long = length > QUESTION_LONG_LENGTH && !tooLong;
  const field = register('text', {
    onChange: () => {
      if (errors.text) clearErrors('text');
    },
  });

  const onSubmit = handleSubmit(async ({ text }) => {
    const trimmed = text.trim();
    if (!trimmed) return; // Spec §5: blank text is silently ignored.
    if (trimmed.length > QUESTION_MAX_LENGTH) {
      setError('text', { message: t('questions.form.tooLong', { max: QUESTION_MAX_LENGTH }) });
      return;
    }
    const saved = await onSave(trimmed);
    if (saved && !editing) reset({ text: '' });
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate data-testid="question-form" data-mode={editing ? 'edit' : 'add'}>
      <h2 className="text-base font-semibold text-gray-950">
        {editing ? t('questions.form.editTitle') : t('questions.form.addTitle')}
      </h2>
      <TextArea
        {...field}
        id={QUESTION_TEXT_ID}
        autoFocus={editing}
        className="mt-4"
        label={t('questions.form.label')}
        placeholder={t('questions.form.placeholder')}
        rows={3}
        hint={
          long ? (
            <span className="text-pending-800" data-testid="question-long-hint">
              {t('questions.form.longHint')}
            </span>
          ) : (
            t('questions.form.hint')
          )
        }
        error={errors.text?.message}
        data-testid="question-text-input"
        onKeyDown={(event) => {
          // Ctrl/Cmd+Enter saves, as in most editors.
          if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) void onSubmit();
        }}
        aside={
          <span className={cn('shrink-0 tabular-nums', tooLong && 'font-medium text-error-700')} aria-live="polite">
            {t('questions.form.count', { count: length, max: QUESTION_MAX_LENGTH })}
          </span>
        }
      />
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
