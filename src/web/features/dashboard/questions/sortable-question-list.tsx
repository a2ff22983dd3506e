import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TQuestion } from '../../../../contract/api/questions.schema.js';
import type { TLanguage } from '../../../../contract/constants.js';
import { questionTextIn } from '../../../../contract/question-text.js';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { PencilIcon, TrashIcon } from '../../../components/icons';
import { SortableList } from '../../../components/sortable-list';
import { cn } from '../../../lib/cn';

export interface SortableQuestionListProps {
  questions: readonly TQuestion[];
  /** The question being edited (highlighted). */
  editingId: string | null;
  onEdit: (question: TQuestion) => void;
  onDelete: (question: TQuestion) => void;
  /** A row was dropped at another place: indexes in the list. */
  onReorder: (from: number, to: number) => void;
}

/**
 * The question in the interface's language (or the other one's, marked with its `lang`), and a badge
 * when a language has no text, saying which customers see the other one (decision 165).
 */
function QuestionTexts({ question, position, children }: { question: TQuestion; position: number; children?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const language: TLanguage = i18n.language === 'fr' ? 'fr' : 'en';
  const shown: TLanguage = (language === 'fr' ? question.text_fr : question.text_en) ? language : language === 'fr' ? 'en' : 'fr';
  const missing = (['en', 'fr'] as const).filter((lang) => !(lang === 'en' ? question.text_en : question.text_fr));
  return (
    <div className="min-w-0 flex-1 pt-1">
      <p className="text-sm break-words whitespace-pre-wrap text-gray-900" data-testid="question-text" lang={shown}>
        <span className="sr-only">{t('questions.list.positionLabel', { position })} </span>
        {questionTextIn(question, language)}
      </p>
      {missing.map((lang) => (
        <Badge
          key={lang}
          className="mt-1.5"
          tone="pending"
          title={lang === 'en' ? t('questions.list.missingEnTitle') : t('questions.list.missingFrTitle')}
          data-testid="question-missing-language"
          data-language={lang}
        >
          {lang === 'en' ? t('questions.list.missingEn') : t('questions.list.missingFr')}
          <span className="sr-only">: {lang === 'en' ? t('questions.list.missingEnTitle') : t('questions.list.missingFrTitle')}</span>
        </Badge>
      ))}
      {children}
    </div>
  );
}

const questionId = (question: TQuestion) => question.id;

/**
 * The ordered questions, reorderable by mouse and keyboard through the shared sortable list (decisions 045,
 * 174, 179). Test ids: `questions-list`, `question-row` (data-id, data-position), `question-handle`,
 * `question-text`, `question-drop-indicator` (data-target), `question-edit`, `question-delete`.
 */
export function SortableQuestionList({ questions, editingId, onEdit, onDelete, onReorder }: SortableQuestionListProps) {
  const { t } = useTranslation();
  return (
    <SortableList
      items={questions}
      idOf={questionId}
      onReorder={onReorder}
      messages="questions.dnd"
      label={t('questions.list.label')}
      testIds={{ list: 'questions-list', row: 'question-row', handle: 'question-handle', indicator: 'question-drop-indicator' }}
      handleLabel={(_, position) => t('questions.list.reorder', { position })}
      rowClassName={(question, dragging) => cn('items-start', question.id === editingId && !dragging && 'bg-brand-50/60')}
      renderItem={(question, { position, indicator }) => (
        <>
          <span
            className="mt-1 inline-flex h-6 min-w-6 shrink-0 items-center justify-center rounded-full bg-gray-100 px-1.5 text-xs font-medium text-gray-700 tabular-nums"
            aria-hidden="true"
          >
            {position}
          </span>
          <QuestionTexts question={question} position={position}>
            {indicator}
          </QuestionTexts>
          <div className="flex shrink-0 items-center gap-1">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => onEdit(question)}
              aria-label={t('questions.list.editLabel', { position })}
              data-testid="question-edit"
              className="px-2 sm:px-3"
              leadingIcon={<PencilIcon className="size-4" />}
            >
              <span className="max-sm:hidden">{t('questions.list.edit')}</span>
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => onDelete(question)}
              aria-label={t('questions.list.deleteLabel', { position })}
              data-testid="question-delete"
              className="px-2 text-error-700 hover:bg-error-50 hover:text-error-800 sm:px-3"
              leadingIcon={<TrashIcon className="size-4" />}
            >
              <span className="max-sm:hidden">{t('questions.list.delete')}</span>
            </Button>
          </div>
        </>
      )}
    />
  );
}

/** The questions in order for a viewer (issue 32): no handle, no edit, no delete. Test ids `questions-list`, `question-row`. */
export function ReadOnlyQuestionList({ questions }: { questions: TQuestion[] }) {
  const { t } = useTranslation();
  return (
    <ol aria-label={t('questions.list.label')} className="divide-y divide-gray-100" data-testid="questions-list">
      {questions.map((question, index) => (
        <li key={question.id} className="flex items-start gap-3 px-4 py-3 sm:px-6" data-testid="question-row" data-id={question.id}>
          <span
            className="mt-1 inline-flex h-6 min-w-6 shrink-0 items-center justify-center rounded-full bg-gray-100 px-1.5 text-xs font-medium text-gray-700 tabular-nums"
            aria-hidden="true"
          >
            {index + 1}
          </span>
          <QuestionTexts question={question} position={index + 1} />
        </li>
      ))}
    </ol>
  );
}
