import pg from 'pg';
import { COMPANY_CHANGED_CHANNEL, type Database } from './client.js';

/** How the feed's connection names itself in pg_stat_activity. */
export const CHANGE_FEED_APPLICATION_NAME = 'vouchreel-change-feed';

/** An announcement is '<company id>/<transaction id>'; its company id, or '*' for every company. */
export function announcedCompany(payload: string): string {
  const slash = payload.indexOf('/');
  return slash < 0 ? payload : payload.slice(0, slash);
}

/**
 * This process hears its own writes' announcements twice (on the connection that wrote, then on the
 * feed's), in either order: the second copy is no news, and dropping it again would only cost reads.
 */
class HeardOnce {
  private readonly heard = new Set<string>();
  constructor(private readonly max = 10_000) {}

  /** Whether this is the first copy of the announcement. */
  first(payload: string): boolean {
    if (this.heard.delete(payload)) return false;
    this.heard.add(payload);
    if (this.heard.size > this.max) {
      const oldest = this.heard.values().next();
      if (!oldest.done) this.heard.delete(oldest.value);
    }
    return true;
  }
}

export interface ChangeFeedHandlers {
  /** A change of this company was committed. */
  changed: (companyId: string) => void;
  /** Listening (again): changes from now on are heard. */
  connected: () => void;
  /** Not listening: changes may go unheard until `connected`. */
  disconnected: () => void;
}

export interface ChangeFeedOptions {
  logger: { warn: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
  /** How often the listening connection is checked (a silent network loss emits no error). */
  heartbeatMs?: number;
}

export interface ChangeFeed {
  stop: () => Promise<void>;
}

/**
 * Listens to the 'company_changed' channel. On PostgreSQL, on its own connection (outside the pool),
 * reconnected with a growing delay whenever it fails or stops answering; embedded, on PGlite itself.
 */
export async function startChangeFeed(database: Database, handlers: ChangeFeedHandlers, options: ChangeFeedOptions): Promise<ChangeFeed> {
  if (database.pglite) {
    const unlisten = await database.pglite.listen(COMPANY_CHANGED_CHANNEL, (payload) => {
      if (payload) handlers.changed(announcedCompany(payload));
    });
    handlers.connected();
    return {
      stop: async () => {
        handlers.disconnected();
        if (!database.pglite?.closed) await unlisten().catch(() => undefined);
      },
    };
  }
  if (!database.url) throw new Error('The change feed needs the PostgreSQL URL.');
  const url = database.url;
  // This process's own writes are heard on the connection that made them, before their call returns:
  // what it wrote, it reads back at once (the feed's connection hears them a moment later, and every
  // other process's writes).
  const heard = new HeardOnce();
  const announced = (payload: string) => {
    if (heard.first(payload)) handlers.changed(announcedCompany(payload));
  };
  database.ownChanges?.on(COMPANY_CHANGED_CHANNEL, announced);
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let delayMs = 250;

  const drop = (reason: unknown) => {
    if (!client) return;
    const failed = client;
    client = undefined;
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = undefined;
    handlers.disconnected();
    failed.removeAllListeners();
    failed.on('error', () => undefined);
    void failed.end().catch(() => undefined);
    if (stopped) return;
    options.logger.warn({ err: reason instanceof Error ? reason.message : String(reason), retryInMs: delayMs }, 'change feed lost; reads are not cached until it is back');
    schedule();
  };

  const schedule = () => {
    retry = setTimeout(() => void connect(), delayMs);
    delayMs = Math.min(delayMs * 2, 5000);
  };

  const connect = async () => {
    retry = undefined;
    if (stopped) return;
    const next = new pg.Client({ connectionString: url, application_name: CHANGE_FEED_APPLICATION_NAME, keepAlive: true, query_timeout: 5000, connectionTimeoutMillis: 5000 });
    next.on('error', (error) => (client === next ? drop(error) : undefined));
    next.on('end', () => (client === next ? drop(new Error('connection ended')) : undefined));
    next.on('notification', (message) => {
      if (message.channel === COMPANY_CHANGED_CHANNEL && message.payload) announced(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${COMPANY_CHANGED_CHANNEL}`);
    } catch (error) {
      next.removeAllListeners();
      next.on('error', () => undefined);
      void next.end().catch(() => undefined);
      if (stopped) return;
      options.logger.warn({ err: error instanceof Error ? error.message : String(error), retryInMs: delayMs }, 'change feed cannot listen yet');
      schedule();
      return;
    }
    if (stopped) {
      void next.end().catch(() => undefined);
      return;
    }
    client = next;
    delayMs = 250;
    handlers.connected();
    heartbeat = setInterval(() => {
      const current = client;
      current?.query('select 1').catch((error: unknown) => (client === current ? drop(error) : undefined));
    }, heartbeatMs);
    heartbeat.unref();
  };

  await connect();
  return {
    stop: async () => {
      stopped = true;
      database.ownChanges?.off(COMPANY_CHANGED_CHANNEL, announced);
      if (retry) clearTimeout(retry);
      if (heartbeat) clearInterval(heartbeat);
      const last = client;
      client = undefined;
      handlers.disconnected();
      if (last) {
        last.removeAllListeners();
        last.on('error', () => undefined);
        await last.end().catch(() => undefined);
      }
    },
  };
}
