import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core';
import type { Announcements, DragEndEvent, Modifier, UniqueIdentifier } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { TWallItem } from '../../../../contract/api/wall.schema.js';
import { GripIcon, VideoIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';
import { formatDate } from '../../../lib/format';
import { WallSwitch } from './wall-switch';

/** Rows only move up and down. */
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

/** Which video it is, in words: the question answered, or the kind of render. */
export function versionLabel(item: TWallItem, t: TFunction): string {
  const kind = t(`wall.kind.${item.kind}`);
  return item.question ? `${kind} · ${item.question}` : kind;
}

function Poster({ item }: { item: TWallItem }) {
  return (
    <div className="flex h-16 w-12 shrink-0 items-center justify-center overflow-hidden rounded-control bg-gray-900 sm:h-[72px] sm:w-[54px]">
      {item.posterUrl ? (
        <img src={item.posterUrl} alt="" loading="lazy" className="size-full object-cover" />
      ) : (
        <VideoIcon className="size-5 text-gray-400" aria-hidden="true" />
      )}
    </div>
  );
}

function Details({ item }: { item: TWallItem }) {
  const { t } = useTranslation();
  return (
    <div className="min-w-0 flex-1">
      <p className="truncate text-sm font-medium text-gray-900" data-testid="wall-item-name">
        {item.name}
        {item.title && <span className="font-normal text-gray-500 max-sm:hidden"> · {item.title}</span>}
      </p>
      {item.title && <p className="truncate text-xs text-gray-600 sm:hidden">{item.title}</p>}
      <p className="truncate text-xs text-gray-600">{versionLabel(item, t)}</p>
      {item.quote && <p className="mt-0.5 line-clamp-1 text-xs text-gray-500 italic">“{item.quote}”</p>}
      <p className="mt-0.5 text-xs text-gray-500 tabular-nums">
        {t('wall.list.publishedOn', { date: formatDate(item.publishedAt) })} ·{' '}
        <a href={item.url} target="_blank" rel="noopener noreferrer" className="font-medium text-brand-700 underline-offset-2 hover:underline">
          {t('wall.list.openPage')}
          <span className="sr-only"> {t('wall.list.newTab')}</span>
        </a>
      </p>
    </div>
  );
}

interface RowProps {
  item: TWallItem;
  index: number;
  sortable: boolean;
  onToggle: (on: boolean) => void;
}

function WallRow({ item, index, sortable, onToggle }: RowProps) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: item.publicationId,
    disabled: !sortable,
  });
  const position = index + 1;
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-testid="wall-row"
      data-id={item.publicationId}
      data-position={position}
      className={cn(
        'relative flex items-center gap-2 border-b border-gray-100 bg-white px-3 py-3 last:border-b-0 sm:gap-3 sm:px-4',
        isDragging && 'z-10 rounded-control shadow-overlay ring-1 ring-brand-200',
      )}
    >
      {sortable && (
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={t('wall.list.reorder', { position, name: item.name })}
          data-testid="wall-handle"
          className="-ml-1 inline-flex size-8 shrink-0 cursor-grab touch-none items-center justify-center rounded-control text-gray-400 transition-colors hover:bg-gray-100 hover:text-gray-700 active:cursor-grabbing"
        >
          <GripIcon className="size-4" />
        </button>
      )}
      <span
        className="inline-flex h-6 min-w-6 shrink-0 items-center justify-center rounded-full bg-brand-50 px-1.5 text-xs font-medium text-brand-800 tabular-nums max-sm:hidden"
        aria-hidden="true"
      >
        {position}
      </span>
      <Poster item={item} />
      <Details item={item} />
      <WallSwitch
        checked
        onChange={onToggle}
        label={t('wall.list.switchLabel', { name: item.name })}
        text={t('wall.list.switch')}
        data-testid="wall-switch"
      />
    </li>
  );
}

/** A video that is not on the wall: switched on, it goes to the end of the wall. */
export function OffRow({ item, onToggle }: { item: TWallItem; onToggle: (on: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <li className="flex items-center gap-2 border-b border-gray-100 px-3 py-3 last:border-b-0 sm:gap-3 sm:px-4" data-testid="wall-off-row" data-id={item.publicationId}>
      {/* Lined up with the rows above (their handle and number). */}
      <span aria-hidden="true" className="w-[60px] shrink-0 max-sm:hidden" />
      <Poster item={item} />
      <Details item={item} />
      <WallSwitch
        checked={false}
        onChange={onToggle}
        label={t('wall.list.switchLabel', { name: item.name })}
        text={t('wall.list.switch')}
        data-testid="wall-switch"
      />
    </li>
  );
}

export interface SortableWallListProps {
  items: readonly TWallItem[];
  onReorder: (from: number, to: number) => void;
  onToggle: (item: TWallItem, on: boolean) => void;
}

/**
 * The videos on the wall in their order, reorderable with @dnd-kit by mouse or touch (the handle, after
 * 5 px) and by keyboard (focus the handle, Space, arrows, Space; Escape cancels), with announcements.
 */
export function SortableWallList({ items, onReorder, onToggle }: SortableWallListProps) {
  const { t } = useTranslation();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = items.map((item) => item.publicationId);
  const sortable = items.length > 1;
  const positionOf = (id: UniqueIdentifier) => ids.indexOf(String(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('wall.dnd.start', { position: positionOf(active.id) }),
    onDragOver: ({ active, over }) =>
      over
        ? t('wall.dnd.over', { position: positionOf(active.id), target: positionOf(over.id) })
        : t('wall.dnd.outside', { position: positionOf(active.id) }),
    onDragEnd: ({ active, over }) =>
      over
        ? t('wall.dnd.end', { position: positionOf(active.id), target: positionOf(over.id) })
        : t('wall.dnd.cancel', { position: positionOf(active.id) }),
    onDragCancel: ({ active }) => t('wall.dnd.cancel', { position: positionOf(active.id) }),
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
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
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('wall.dnd.instructions') } }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ol className="flex flex-col" data-testid="wall-list" aria-label={t('wall.list.onLabel')}>
          {items.map((item, index) => (
            <WallRow key={item.publicationId} item={item} index={index} sortable={sortable} onToggle={(on) => onToggle(item, on)} />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}
