import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core';
import type {
  Announcements,
  DragEndEvent,
  DragMoveEvent,
  DragStartEvent,
  KeyboardCoordinateGetter,
  Modifier,
  UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../lib/cn';
import { GripIcon } from './icons';

/** Spec §9: a drag starts after 5 px of movement; the keyboard moves 25 px per key press (decision 045). */
export const DRAG_ACTIVATION_DISTANCE = 5;
export const KEYBOARD_STEP_PX = 25;

/** Arrow keys move the dragged row by 25 px (Space or Enter picks it up and drops it, Escape cancels). */
export const keyboardCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates }) => {
  switch (event.code) {
    case 'ArrowDown':
      return { ...currentCoordinates, y: currentCoordinates.y + KEYBOARD_STEP_PX };
    case 'ArrowUp':
      return { ...currentCoordinates, y: currentCoordinates.y - KEYBOARD_STEP_PX };
    case 'ArrowRight':
      return { ...currentCoordinates, x: currentCoordinates.x + KEYBOARD_STEP_PX };
    case 'ArrowLeft':
      return { ...currentCoordinates, x: currentCoordinates.x - KEYBOARD_STEP_PX };
    default:
      return undefined;
  }
};

/** Rows only move up and down. */
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

/** The catalogue section holding a list's words (each has the same keys: start, land, stay, still, …). */
export type TSortableMessages = 'questions.dnd' | 'wall.dnd';

/** What a move says, as keys and values: pure, so it is tested without a browser. */
export interface TMoveSpeech {
  /** Arrow-key presses counted when the last text was said, the place then, and the text. */
  press: number;
  target: number;
  text: string;
}

/**
 * Decision 174: what the live region says after a move, or null when it stays quiet. Every arrow-key
 * press is said, even one that does not change the place (then as "still", so that the text changes and
 * is read again); a pointer move is said only when the place changes.
 */
export function moveSpeech(
  last: TMoveSpeech,
  move: { presses: number; position: number; target: number; count: number },
  say: (key: 'stay' | 'land' | 'still', values: { position: number; target: number; count: number }) => string,
): TMoveSpeech | null {
  const { presses, position, target, count } = move;
  if (presses === last.press && target === last.target) return null;
  let text = say(target === position ? 'stay' : 'land', { position, target, count });
  if (text === last.text) text = say('still', { position, target, count });
  return { press: presses, target, text };
}

export interface TSortableRow {
  /** 1-based place in the list. */
  position: number;
  count: number;
  /** While this row is dragged: "Drops at 3 of 5" with an arrow, for the row to place under its text. */
  indicator: ReactNode;
}

export interface SortableListProps<T> {
  items: readonly T[];
  idOf: (item: T) => string;
  /** A row was dropped at another place: indexes in the list. */
  onReorder: (from: number, to: number) => void;
  messages: TSortableMessages;
  /** The list's accessible name. */
  label: string;
  /** Test ids of the list, its rows (with data-id, data-position), handles and drop indicator (data-target). */
  testIds: { list: string; row: string; handle: string; indicator: string };
  handleLabel: (item: T, position: number) => string;
  /** Classes of a row besides the shared ones (alignment, a highlight). */
  rowClassName?: (item: T, dragging: boolean) => string | false | undefined;
  /** The row's content after the handle. */
  renderItem: (item: T, row: TSortableRow) => ReactNode;
}

interface RowProps {
  id: string;
  sortable: boolean;
  label: string;
  testIds: SortableListProps<unknown>['testIds'];
  position: number;
  className: (dragging: boolean) => string | false | undefined;
  children: ReactNode;
}

function SortableRow({ id, sortable, label, testIds, position, className, children }: RowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled: !sortable,
  });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-testid={testIds.row}
      data-id={id}
      data-position={position}
      className={cn(
        'relative flex gap-2 border-b border-gray-100 bg-white px-3 py-3 last:border-b-0 sm:gap-3 sm:px-4',
        isDragging && 'z-10 rounded-control shadow-overlay ring-1 ring-brand-200',
        className(isDragging),
      )}
    >
      {sortable && (
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={label}
          data-testid={testIds.handle}
          className="-ml-1 inline-flex size-8 shrink-0 cursor-grab touch-none items-center justify-center rounded-control text-gray-400 transition-colors hover:bg-gray-100 hover:text-gray-700 active:cursor-grabbing"
        >
          <GripIcon className="size-4" />
        </button>
      )}
      {children}
    </li>
  );
}

/**
 * One sortable list (the questions, the wall): @dnd-kit by mouse or touch (the handle, after 5 px) and by
 * keyboard (focus the handle, Space, arrows of 25 px, Space; Escape cancels). The handle shows only with
 * more than one row. While a row is dragged it shows where it would land, and each move is announced
 * (decisions 045, 174, 179).
 */
export function SortableList<T>({
  items,
  idOf,
  onReorder,
  messages,
  label,
  testIds,
  handleLabel,
  rowClassName,
  renderItem,
}: SortableListProps<T>) {
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
  const ids = useMemo(() => items.map(idOf), [items, idOf]);
  const sortable = items.length > 1;
  const count = ids.length;
  const positionOf = (id: UniqueIdentifier) => ids.indexOf(String(id)) + 1;
  const say = (key: 'start' | 'stay' | 'land' | 'still' | 'outside' | 'end' | 'cancel', values: Record<string, number>) =>
    t(`${messages}.${key}`, values);

  /** The dragged row and where it would land if dropped now (shown on the row). */
  const [landing, setLanding] = useState<{ id: string; target: number } | null>(null);
  /** What the last press or move said, and what the live region says next (read once by `announcements`). */
  const said = useRef<TMoveSpeech>({ press: 0, target: 0, text: '' });
  const next = useRef<string | undefined>(undefined);

  /** After each move: the target is the first collision of this move (dnd-kit's `over` trails by one render). */
  const onMove = ({ active, over, collisions }: DragMoveEvent) => {
    const overId = collisions?.[0]?.id ?? over?.id;
    const position = positionOf(active.id);
    const target = overId === undefined ? position : positionOf(overId);
    setLanding((current) => (current?.target === target && current.id === active.id ? current : { id: String(active.id), target }));
    const speech = moveSpeech(said.current, { presses: presses.current, position, target, count }, say);
    if (!speech) return;
    said.current = speech;
    next.current = speech.text;
  };
  const take = () => {
    const text = next.current;
    next.current = undefined;
    return text;
  };

  const announcements: Announcements = {
    onDragStart: ({ active }) => say('start', { position: positionOf(active.id), count }),
    onDragMove: take,
    onDragOver: ({ active, over }) => (over ? take() : say('outside', { position: positionOf(active.id) })),
    onDragEnd: ({ active, over }) =>
      over ? say('end', { position: positionOf(active.id), target: positionOf(over.id) }) : say('cancel', { position: positionOf(active.id) }),
    onDragCancel: ({ active }) => say('cancel', { position: positionOf(active.id) }),
  };

  const onDragStart = ({ active }: DragStartEvent) => {
    const position = positionOf(active.id);
    presses.current = 0;
    said.current = { press: 0, target: position, text: say('start', { position, count }) };
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

  const indicatorFor = (position: number, target: number) => (
    <span
      className="mt-2 flex w-fit items-center gap-1 rounded-full bg-brand-600 px-2.5 py-0.5 text-xs font-medium text-white tabular-nums"
      aria-hidden="true"
      data-testid={testIds.indicator}
      data-target={target}
    >
      <span aria-hidden="true">{target > position ? '↓' : target < position ? '↑' : '↕'}</span>
      {t(`${messages}.dropAt`, { target, count })}
    </span>
  );

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
      accessibility={{ announcements, screenReaderInstructions: { draggable: t(`${messages}.instructions`) } }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ol className="flex flex-col" data-testid={testIds.list} aria-label={label}>
          {items.map((item, index) => {
            const id = ids[index] ?? idOf(item);
            const position = index + 1;
            return (
              <SortableRow
                key={id}
                id={id}
                sortable={sortable}
                label={handleLabel(item, position)}
                testIds={testIds}
                position={position}
                className={(dragging) => rowClassName?.(item, dragging)}
              >
                {renderItem(item, { position, count, indicator: landing?.id === id ? indicatorFor(position, landing.target) : null })}
              </SortableRow>
            );
          })}
        </ol>
      </SortableContext>
    </DndContext>
  );
}
