import { describe, expect, it } from 'vitest';
import { ALL_COMPANIES, ReadCache } from './read-cache.js';

const live = (options?: ConstructorParameters<typeof ReadCache>[0]) => {
  const cache = new ReadCache(options);
  cache.connect();
  return cache;
};

describe('ReadCache', () => {
  it('serves what was stored until a change of its company is announced', () => {
    const cache = live();
    cache.set('a', 'company-1', { n: 1 }, cache.ticket());
    cache.set('b', 'company-2', { n: 2 }, cache.ticket());
    expect(cache.get('a')).toEqual({ n: 1 });
    cache.changed('company-1');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toEqual({ n: 2 });
  });

  it('does not keep a read that began before a change of its company', () => {
    const cache = live();
    const ticket = cache.ticket();
    // The change is committed and heard while the read is still running: what it read may be old.
    cache.changed('company-1');
    cache.set('a', 'company-1', 'old', ticket);
    expect(cache.get('a')).toBeUndefined();
    // A change of another company does not matter.
    const other = cache.ticket();
    cache.changed('company-2');
    cache.set('a', 'company-1', 'fresh', other);
    expect(cache.get('a')).toBe('fresh');
  });

  it('serves and stores nothing while the change feed is not listening, and starts empty when it is back', () => {
    const cache = new ReadCache();
    cache.set('a', 'company-1', 1, cache.ticket());
    expect(cache.get('a')).toBeUndefined();
    cache.connect();
    const ticket = cache.ticket();
    cache.set('a', 'company-1', 1, ticket);
    expect(cache.get('a')).toBe(1);
    cache.disconnect();
    expect(cache.live).toBe(false);
    expect(cache.get('a')).toBeUndefined();
    cache.connect();
    // Changes may have gone unheard meanwhile: nothing from before is served, nor stored from old tickets.
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', 'company-1', 1, ticket);
    expect(cache.get('a')).toBeUndefined();
  });

  it("drops everything on '*' (a TRUNCATE)", () => {
    const cache = live();
    cache.set('a', 'company-1', 1, cache.ticket());
    cache.set('b', 'company-2', 2, cache.ticket());
    const ticket = cache.ticket();
    cache.changed(ALL_COMPANIES);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
    cache.set('c', 'company-3', 3, ticket);
    expect(cache.get('c')).toBeUndefined();
  });

  it('ends entries after their time to live and keeps at most maxEntries, the oldest going first', () => {
    const cache = live({ ttlMs: 1000, maxEntries: 2 });
    cache.set('a', 'c', 'A', cache.ticket(), 0);
    cache.set('b', 'c', 'B', cache.ticket(), 10);
    expect(cache.get('a', 999)).toBe('A');
    expect(cache.get('a', 1000)).toBeUndefined();
    cache.set('c', 'c', 'C', cache.ticket(), 20);
    cache.set('d', 'c', 'D', cache.ticket(), 30);
    expect(cache.size).toBe(2);
    expect(cache.get('b', 40)).toBeUndefined();
    expect(cache.get('c', 40)).toBe('C');
    expect(cache.get('d', 40)).toBe('D');
  });

  it('bounds the companies it remembers as changed by starting over', () => {
    const cache = live({ maxChangedCompanies: 3 });
    const ticket = cache.ticket();
    for (const id of ['1', '2', '3']) cache.changed(id);
    cache.set('a', '9', 'kept', cache.ticket());
    cache.changed('4');
    // Starting over drops the cached reads and the tickets taken before.
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', '9', 'late', ticket);
    expect(cache.get('b')).toBeUndefined();
  });

  it('reads through: loads on a miss, then serves the stored value without loading', async () => {
    const cache = live();
    let loads = 0;
    const load = async () => {
      loads += 1;
      return { company: 'c1', loads };
    };
    expect(await cache.read('k', load, (v) => v.company)).toEqual({ company: 'c1', loads: 1 });
    expect(await cache.read('k', load, (v) => v.company)).toEqual({ company: 'c1', loads: 1 });
    cache.changed('c1');
    expect(await cache.read('k', load, (v) => v.company)).toEqual({ company: 'c1', loads: 2 });
    // A value without a company (an unknown link) is not kept.
    let misses = 0;
    const none = async () => {
      misses += 1;
      return undefined;
    };
    await cache.read('none', none, () => undefined);
    await cache.read('none', none, () => undefined);
    expect(misses).toBe(2);
  });
});
