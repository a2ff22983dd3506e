import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TWallItem } from '../../../../contract/api/wall.schema.js';
import { VideoIcon } from '../../../components/icons';
import { SortableList } from '../../../components/sortable-list';
import { formatDate } from '../../../lib/format';
import { WallSwitch } from './wall-switch';

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

function Details({ item, children }: { item: TWallItem; children?: ReactNode }) {
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
      {children}
    </div>
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

const publicationId = (item: TWallItem) => item.publicationId;

/**
 * The videos on the wall in their order, reorderable by mouse, touch and keyboard through the shared
 * sortable list (decisions 045, 174, 179): 25 px per arrow key, and each move announced and shown.
 */
export function SortableWallList({ items, onReorder, onToggle }: SortableWallListProps) {
  const { t } = useTranslation();
  return (
    <SortableList
      items={items}
      idOf={publicationId}
      onReorder={onReorder}
      messages="wall.dnd"
      label={t('wall.list.onLabel')}
      testIds={{ list: 'wall-list', row: 'wall-row', handle: 'wall-handle', indicator: 'wall-drop-indicator' }}
      handleLabel={(item, position) => t('wall.list.reorder', { position, name: item.name })}
      rowClassName={() => 'items-center'}
      renderItem={(item, { position, indicator }) => (
        <>
          <span
            className="inline-flex h-6 min-w-6 shrink-0 items-center justify-center rounded-full bg-brand-50 px-1.5 text-xs font-medium text-brand-800 tabular-nums max-sm:hidden"
            aria-hidden="true"
          >
            {position}
          </span>
          <Poster item={item} />
          <Details item={item}>{indicator}</Details>
          <WallSwitch
            checked
            onChange={(on) => onToggle(item, on)}
            label={t('wall.list.switchLabel', { name: item.name })}
            text={t('wall.list.switch')}
            data-testid="wall-switch"
          />
        </>
      )}
    />
  );
}
