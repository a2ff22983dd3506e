import type { TRequestStatus } from '../../../../contract/constants.js';

/**
 * The status filter (spec §2: 'initial value new; its other values are not shown'). Read here as a
 * select whose 'new' shows the requests still waiting for an answer (pending), next to completed,
 * expired and all.
 */
export const STATUS_FILTERS = ['new', 'completed', 'expired', 'all'] as const;
export type TStatusFilter = (typeof STATUS_FILTERS)[number];
export const INITIAL_STATUS_FILTER: TStatusFilter = 'new';

export function matchesStatusFilter(request: { status: TRequestStatus }, filter: TStatusFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'new') return request.status === 'pending';
  return request.status === filter;
}
