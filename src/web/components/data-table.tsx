import type { MouseEvent, ReactNode } from 'react';
import { cn } from '../lib/cn';
import { MEDIA, useMediaQuery } from '../lib/use-media-query';

export interface DataTableColumn<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Classes of the table's cells of this column (alignment, width). */
  className?: string;
  /**
   * Where the column goes in the card layout (under 768 px): 'title' heads the card, 'badge' sits
   * beside the title, 'field' is a label and its value (the default), 'actions' closes the card.
   */
  card?: 'title' | 'badge' | 'field' | 'actions';
}

export type TRowAttributes = Record<`data-${string}`, string | undefined>;

export interface DataTableProps<T> {
  columns: readonly DataTableColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Names the table for assistive technology. */
  caption: string;
  /** A click anywhere on a row (outside its own buttons and links) opens it. */
  onRowClick?: (row: T) => void;
  /** Which rows react to clicks (all by default when onRowClick is given). */
  isRowClickable?: (row: T) => boolean;
  /** data-* attributes per row (or card): test ids, status. */
  rowAttributes?: (row: T) => TRowAttributes;
  className?: string;
  'data-testid'?: string;
}

/** A click on a control inside a row does its own thing, not the row's. */
function fromInnerControl(event: MouseEvent<HTMLElement>): boolean {
  const target = event.target as HTMLElement;
  return Boolean(target.closest('a, button, input, select, textarea, label'));
}

/**
 * A table on wide screens and a list of cards under 768 px (ui.md). Rows can be clickable; keyboard
 * users reach the same place through a link in the row's actions.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  caption,
  onRowClick,
  isRowClickable,
  rowAttributes,
  className,
  'data-testid': testId,
}: DataTableProps<T>) {
  const asCards = useMediaQuery(MEDIA.mobile);
  const clickable = (row: T) => Boolean(onRowClick) && (isRowClickable ? isRowClickable(row) : true);
  const onClick = (row: T) => (event: MouseEvent<HTMLElement>) => {
    if (!clickable(row) || fromInnerControl(event)) return;
    onRowClick?.(row);
  };

  if (asCards) {
    const title = columns.find((c) => c.card === 'title');
    const badges = columns.filter((c) => c.card === 'badge');
    const fields = columns.filter((c) => (c.card ?? 'field') === 'field');
    const actions = columns.filter((c) => c.card === 'actions');
    return (
      <ul className={cn('flex flex-col gap-3', className)} aria-label={caption} data-testid={testId} data-layout="cards">
        {rows.map((row) => (
          <li
            key={rowKey(row)}
            {...rowAttributes?.(row)}
            onClick={onClick(row)}
            className={cn(
              'rounded-card border border-gray-200 bg-white p-4',
              clickable(row) && 'cursor-pointer transition-colors hover:border-gray-300 hover:bg-gray-50',
            )}
          >
            {(title || badges.length > 0) && (
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0 flex-1">{title?.cell(row)}</div>
                {badges.map((column) => (
                  <div key={column.id} className="shrink-0">
                    {column.cell(row)}
                  </div>
                ))}
              </div>
            )}
            {fields.length > 0 && (
              <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
                {fields.map((column) => (
                  <div key={column.id} className="min-w-0">
                    <dt className="text-xs text-gray-500">{column.header}</dt>
                    <dd className="mt-0.5 text-gray-900 tabular-nums">{column.cell(row)}</dd>
                  </div>
                ))}
              </dl>
            )}
            {actions.length > 0 && (
              <div className="mt-4 flex flex-wrap justify-end gap-2 border-t border-gray-100 pt-3">
                {actions.map((column) => (
                  <div key={column.id}>{column.cell(row)}</div>
                ))}
              </div>
            )}
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div
      className={cn('overflow-x-auto rounded-card border border-gray-200 bg-white', className)}
      data-testid={testId}
      data-layout="table"
    >
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-gray-200 bg-gray-50">
            {columns.map((column) => (
              <th
                key={column.id}
                scope="col"
                className={cn('px-4 py-2.5 text-xs font-medium whitespace-nowrap text-gray-600', column.className)}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              {...rowAttributes?.(row)}
              onClick={onClick(row)}
              className={cn(
                'border-b border-gray-100 last:border-b-0',
                clickable(row) && 'cursor-pointer transition-colors hover:bg-gray-50',
              )}
            >
              {columns.map((column) => (
                <td key={column.id} className={cn('px-4 py-3 align-middle text-gray-900 tabular-nums', column.className)}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
