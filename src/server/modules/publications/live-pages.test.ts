import { describe, expect, it } from 'vitest';
import { LivePages } from './live-pages.js';

describe('LivePages (the public routes keep a live publication for a moment)', () => {
  const setup = (maxEntries = 10) => {
    let clock = 0;
    const pages = new LivePages<{ id: string; title: string }>({ ttlMs: 2000, maxEntries, now: () => clock });
    const reads: string[] = [];
    const db = new Map([
      ['live-1', { id: 'p1', title: 'first' }],
      ['live-2', { id: 'p2', title: 'second' }],
    ]);
    const read = (slug: string) => async () => {
      reads.push(slug);
      return db.get(slug) ?? null;
    };
    return { pages, reads, db, read, tick: (ms: number) => (clock += ms) };
  };

  it('reads a live publication once within the time it is kept, then again', async () => {
    const { pages, reads, read, tick } = setup();
    expect(await pages.get('live-1', read('live-1'))).toEqual({ id: 'p1', title: 'first' });
    tick(1999);
    await pages.get('live-1', read('live-1'));
    expect(reads).toEqual(['live-1']);
    tick(1);
    await pages.get('live-1', read('live-1'));
    expect(reads).toEqual(['live-1', 'live-1']);
  });

  it('visits during a read wait for that one read', async () => {
    const { pages, reads, read } = setup();
    const both = await Promise.all([pages.get('live-1', read('live-1')), pages.get('live-1', read('live-1'))]);
    expect(both[0]).toBe(both[1]);
    expect(reads).toEqual(['live-1']);
  });

  it('never keeps a miss: every guess goes to the database and fills nothing', async () => {
    const { pages, reads, read } = setup();
    expect(await pages.get('guess', read('guess'))).toBeNull();
    expect(await pages.get('guess', read('guess'))).toBeNull();
    expect(reads).toEqual(['guess', 'guess']);
    expect(pages.size).toBe(0);
  });

  it('does not keep a failed read', async () => {
    const { pages } = setup();
    await expect(pages.get('live-1', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(pages.size).toBe(0);
    expect(await pages.get('live-1', async () => ({ id: 'p1', title: 'back' }))).toEqual({ id: 'p1', title: 'back' });
  });

  it('forgets a publication at once when it is taken down, and only that one', async () => {
    const { pages, reads, db, read } = setup();
    await pages.get('live-1', read('live-1'));
    await pages.get('live-2', read('live-2'));
    db.delete('live-1');
    await pages.forget('p1');
    expect(await pages.get('live-1', read('live-1'))).toBeNull();
    await pages.get('live-2', read('live-2'));
    expect(reads).toEqual(['live-1', 'live-2', 'live-1']);
  });

  it('a read in flight when the publication is forgotten is not kept', async () => {
    const { pages, read } = setup();
    let release!: () => void;
    const slow = pages.get('live-1', async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return { id: 'p1', title: 'before the unpublish' };
    });
    const forgotten = pages.forget('p1');
    release();
    await slow;
    await forgotten;
    expect(pages.size).toBe(0);
    expect(await pages.get('live-1', read('live-1'))).toEqual({ id: 'p1', title: 'first' });
  });

  it('holds at most maxEntries, dropping the oldest', async () => {
    const { pages, reads, read, db } = setup(2);
    db.set('live-3', { id: 'p3', title: 'third' });
    await pages.get('live-1', read('live-1'));
    await pages.get('live-2', read('live-2'));
    await pages.get('live-3', read('live-3'));
    expect(pages.size).toBe(2);
    await pages.get('live-1', read('live-1'));
    expect(reads).toEqual(['live-1', 'live-2', 'live-3', 'live-1']);
  });
});
