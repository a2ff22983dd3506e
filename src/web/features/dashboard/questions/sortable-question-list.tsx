import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import type { Announcements, DragEndEvent, DragMoveEvent, DragStartEvent, Modifier, UniqueIdentifier } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TQuestion } from '../../../../contract/api/questions.schema.js';
import type { TLanguage } from '../../../../contract/constants.js';
import { questionTextIn } from '../../../../contract/question-text.js';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { GripIcon, PencilIcon, TrashIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';
import { DRAG_ACTIVATION_DISTANCE, keyboardCoordinates } from './drag-settings';

/** Rows only move up and down. */
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

export interface SortableQuestionListProps {
  questions: readonly TQuestion[];
  /** The question being edited (highlighted). */
  editingId: string | null;
  onEdit: (question: TQuestion) => void;
  onDelete: (question: TQuestion) => void;
  /** A row was dropped at another place: indexes in the list. */
  onReorder: (from: number, to: number) => void;
}

interface RowProps {
  question: TQuestion;
  index: number;
  sortable: boolean;
  editing: boolean;
  /** While this row is dragged: the position it would land at if dropped now (1-based). */
  landing: number | null;
  count: number;
  onEdit: () => void;
  onDelete: () => void;
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

function QuestionRow({ question, index, sortable, editing, landing, count, onEdit, onDelete }: RowProps) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: question.id,
    disabled: !sortable,
  });
  const position = index + 1;
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-testid="question-row"
      data-id={question.id}
      data-position={position}
      className={cn(
        'relative flex items-start gap-2 border-b border-gray-100 bg-white px-3 py-3 last:border-b-0 sm:gap-3 sm:px-4',
        isDragging && 'z-10 rounded-control shadow-overlay ring-1 ring-brand-200',
        editing && !isDragging && 'bg-brand-50/60',
      )}
    >
      {sortable && (
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={t('questions.list.reorder', { position })}
          data-testid="question-handle"
          className="-ml-1 inline-flex size-8 shrink-0 cursor-grab touch-none items-center justify-center rounded-control text-gray-400 transition-colors hover:bg-gray-100 hover:text-gray-700 active:cursor-grabbing"
        >
          <GripIcon className="size-4" />
        </button>
      )}
      <span
        className="mt-1 inline-flex h-6 min-w-6 shrink-0 items-center justify-center rounded-full bg-gray-100 px-1.5 text-xs font-medium text-gray-700 tabular-nums"
        aria-hidden="true"
      >
        {position}
      </span>
      <QuestionTexts question={question} position={position}>
        {landing !== null && (
          <span
            className="mt-2 flex w-fit items-center gap-1 rounded-full bg-brand-600 px-2.5 py-0.5 text-xs font-medium text-white tabular-nums"
            aria-hidden="true"
            data-testid="question-drop-indicator"
            data-target={landing}
          >
            <span aria-hidden="true">{landing > position ? '↓' : landing < position ? '↑' : '↕'}</span>
            {t('questions.list.dropAt', { target: landing, count })}
          </span>
        )}
      </QuestionTexts>
      <div className="flex shrink-0 items-center gap-1">
        <Button
          variant="ghost"
          size="sm"
          onClick={onEdit}
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
          onClick={onDelete}
          aria-label={t('questions.list.deleteLabel', { position })}
          data-testid="question-delete"
          className="px-2 text-error-700 hover:bg-error-50 hover:text-error-800 sm:px-3"
          leadingIcon={<TrashIcon className="size-4" />}
        >
          <span className="max-sm:hidden">{t('questions.list.delete')}</span>
        </Button>
      </div>
    </li>
  );
}

/**
 * The ordered questions, reorderable with @dnd-kit by mouse (the handle, after 5 px) and by keyboard
 * (focus the handle, Space, arrows, Space). The handle column shows only with more than one
 * question. While a row is dragged it shows where it would land, and each move is announced (issue 27,
 * item 9). Test ids: `questions-list`, `question-row` (data-id, data-position), `question-handle`,
 * `question-text`, `question-drop-indicator` (data-target), `question-edit`, `question-delete`.
 */
export function SortableQuestionList({ questions, editingId, onEdit, onDelete, onReorder }: SortableQuestionListProps) {
  const { t } = useTranslation();
  /** Arrow-key presses taken by the keyboard sensor during this drag: each one is announced. */
  const presses = useRef(0);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: DRAG_ACTIVATION_DISTANCE } }),
    useSensor(KeyboardSensor, {
      coordinateGetter: (event, args) => {
        const next = keyboardCoordinates(event, args);
        if (next) presses.current += 1;
        return next;
      },
    }),
  );
  const ids = useMemo(() => questions.map((q) => q.id), [questions]);
  const sortable = questions.length > 1;

  const positionOf = (id: UniqueIdentifier) => ids.indexOf(String(id)) + 1;
  const count = ids.length;
  /** The dragged row and where it would land if dropped now (shown on the row). */
  const [landing, setLanding] = useState<{ id: string; target: number } | null>(null);
  /** What the last press or move said, and what the live region says next (read once by `announcements`). */
  const said = useRef({ press: 0, target: 0, text: '' });
  const next = useRef<string | undefined>(undefined);

  /**
   * After each move (issue 27, item 9): where the question would land if dropped now, on the row and
   * in the live region. The target is the first collision of this move (dnd-kit's `over` trails by one
   * render). Every arrow-key press is announced, even one that does not change the place (said as
   * "still", so that the text changes and is read); a pointer drag is announced when the place changes.
   */
  const onMove = ({ active, over, collisions }: DragMoveEvent) => {
    const overId = collisions?.[0]?.id ?? over?.id;
    const position = positionOf(active.id);
    const target = overId === undefined ? position : positionOf(overId);
    setLanding((current) => (current?.target === target && current.id === active.id ? current : { id: String(active.id), target }));
    const last = said.current;
    if (presses.current === last.press && target === last.target) return;
    let text =
      target === position
        ? t('questions.dnd.stay', { position, count })
        : t('questions.dnd.land', { position, target, count });
    if (text === last.text) text = t('questions.dnd.still', { position, target, count });
    said.current = { press: presses.current, target, text };
    next.current = text;
  };
  const take = () => {
    const text = next.current;
    next.current = undefined;
    return text;
  };

  const announcements: Announcements = {
    onDragStart: ({ active }) => t('questions.dnd.start', { position: positionOf(active.id), count }),
    onDragMove: take,
    onDragOver: ({ active, over }) => (over ? take() : t('questions.dnd.outside', { position: positionOf(active.id) })),
    onDragEnd: ({ active, over }) =>
      over
        ? t('questions.dnd.end', { position: positionOf(active.id), target: positionOf(over.id) })
        : t('questions.dnd.cancel', { position: positionOf(active.id) }),
    onDragCancel: ({ active }) => t('questions.dnd.cancel', { position: positionOf(active.id) }),
  };

  const onDragStart = ({ active }: DragStartEvent) => {
    const position = positionOf(active.id);
    presses.current = 0;
    said.current = { press: 0, target: position, text: t('questions.dnd.start', { position, count }) };
    next.current = undefined;
    setLanding({ id: String(active.id), target: position });
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setLanding(null);
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0) onReorder(from, to);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      modifiers={[verticalOnly]}
      onDragStart={onDragStart}
      onDragMove={onMove}
      onDragOver={onMove}
      onDragEnd={onDragEnd}
      onDragCancel={() => setLanding(null)}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('questions.dnd.instructions') } }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ol className="flex flex-col" data-testid="questions-list" aria-label={t('questions.list.label')}>
          {questions.map((question, index) => (
            <QuestionRow
              key={question.id}
              question={question}
              index={index}
              sortable={sortable}
              editing={question.id === editingId}
              landing={landing?.id === question.id ? landing.target : null}
              count={count}
              onEdit={() => onEdit(question)}
              onDelete={() => onDelete(question)}
            />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}
