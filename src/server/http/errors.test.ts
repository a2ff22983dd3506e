import net from 'node:net';
import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZApiError } from '../../contract/errors.js';
import { isDatabaseUnavailable } from '../lib/db-errors.js';
import { registerErrorHandling } from './errors.js';

/** A port nothing listens on: connections are refused at once. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server that accepts a connection and hangs up at once, like a database that goes down mid-talk. */
async function hangingUp(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The error a real failing call gives. */
async function errorOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('an unreachable database answers 503 in the error shape', () => {
  let app: FastifyInstance;
  let refusedPool: pg.Pool;
  let hangUp: Awaited<ReturnType<typeof hangingUp>>;
  let hangUpPool: pg.Pool;
  let refused: unknown;
  let cut: unknown;
  let drizzled: unknown;

  beforeAll(async () => {
    refusedPool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${await closedPort()}/x`, connectionTimeoutMillis: 2000 });
    refusedPool.on('error', () => undefined);
    hangUp = await hangingUp();
    hangUpPool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${hangUp.port}/x`, connectionTimeoutMillis: 2000 });
    hangUpPool.on('error', () => undefined);
    refused = await errorOf(() => refusedPool.query('select 1'));
    cut = await errorOf(() => hangUpPool.query('select 1'));
    // What services see: Drizzle wraps the driver's error (the cause).
    drizzled = await errorOf(() => drizzle(refusedPool).execute(sql`select 1`));

    app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/refused', () => Promise.reject(refused));
    app.get('/cut', () => Promise.reject(cut));
    app.get('/drizzle', () => Promise.reject(drizzled));
    app.get('/shutting-down', () =>
      Promise.reject(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' })),
    );
    app.get('/starting-up', () => Promise.reject(Object.assign(new Error('the database system is starting up'), { code: '57P03', severity: 'FATAL' })));
    app.get('/statement', () =>
      Promise.reject(Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: '23505', severity: 'ERROR' })),
    );
    app.get('/file', () => readFile('/nonexistent/vouchreel/file'));
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await refusedPool?.end();
    await hangUpPool?.end();
    await hangUp?.close();
  });

  it('recognises a refused connection, a cut connection and a server shutting down, through wrapping', () => {
    expect((refused as { code?: string }).code).toBe('ECONNREFUSED');
    expect(String((cut as Error).message)).toMatch(/Connection terminated/);
    expect(drizzled).not.toBe(refused);
    for (const error of [refused, cut, drizzled]) expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: new Error('wrapped again', { cause: refused }) }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([refused], 'every address refused'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    // A failed statement is not an outage, nor is a missing file.
    expect(isDatabaseUnavailable(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('no such file'), { code: 'ENOENT' }))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  it('answers 503 { error, code: "unavailable" } with Retry-After, without internals', async () => {
    for (const url of ['/refused', '/cut', '/drizzle', '/shutting-down', '/starting-up']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(503);
      expect(ZApiError.parse(res.json())).toEqual({ error: 'The service is briefly unavailable. Please try again in a moment.', code: 'unavailable' });
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|select/);
    }
  });

  it('still answers 500 for a failed statement or any other fault', async () => {
    const statement = await app.inject({ method: 'GET', url: '/statement' });
    expect(statement.statusCode).toBe(500);
    expect(statement.json()).toMatchObject({ code: 'unexpected_db' });
    const file = await app.inject({ method: 'GET', url: '/file' });
    expect(file.statusCode).toBe(500);
    expect(file.json()).toMatchObject({ code: 'server_error' });
    expect(file.headers['retry-after']).toBeUndefined();
  });
});
