import type { TWallItem } from '../../../../contract/api/wall.schema.js';

/** The ids shown on the wall, in order, as the server gave them. */
export function wallOrderOf(items: readonly TWallItem[]): string[] {
  return items.filter((item) => item.onWall).sort((a, b) => (a.position ?? 0) - (b.position ?? 0)).map((item) => item.publicationId);
}

/** The order after moving the id at `from` to `to`. */
export function move(order: readonly string[], from: number, to: number): string[] {
  const next = [...order];
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return next;
  next.splice(to, 0, moved);
  return next;
}

/** Switched on: at the end of the wall; switched off: out of it. */
export function toggle(order: readonly string[], id: string, on: boolean): string[] {
  if (on) return order.includes(id) ? [...order] : [...order, id];
  return order.filter((x) => x !== id);
}

export const sameOrder = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);
