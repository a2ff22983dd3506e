import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chown, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { expect } from 'vitest';
import { ROOT_DIR } from '../../src/server/lib/paths.js';
import { multipart } from '../../src/server/test/clips.js';
import { ADMIN_URL } from './admin-url.js';

/**
 * What the reliability suite shares: real server processes (the built server, `dist/node/server/main.js`,
 * built by the suite's global setup) on real PostgreSQL — a scratch database of the machine's server, or
 * a server of the test's own (initdb into a temporary folder) when a test stops the database.
 */

const run = promisify(execFile);

export { ADMIN_URL };
/** Every process of a run signs and checks with this key. */
export const JWT_SECRET = randomBytes(32).toString('hex');
const SERVER_ENTRY = path.join(ROOT_DIR, 'dist/node/server/main.js');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 90_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

export const tempDir = (prefix: string) => mkdtemp(path.join(os.tmpdir(), `vouchreel-${prefix}-`));

/** Entries of a folder, or none if it does not exist. */
export const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);

// ————————————————————————————————————————————— databases

export interface ScratchDatabase {
  url: string;
  /** A connection of the test's own, to look at rows. */
  db: pg.Client;
  drop(): Promise<void>;
}

/** A new, empty database on a PostgreSQL server (the machine's by default), dropped by `drop`. */
export async function scratchDatabase(adminUrl = ADMIN_URL): Promise<ScratchDatabase> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // The run's id (global setup) lets the end of the run drop what a crashed test left.
  const name = `vr_reliability_${process.env.VR_RELIABILITY_RUN ?? 'solo'}_${randomBytes(3).toString('hex')}`;
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = new pg.Client({ connectionString: url.toString() });
  db.on('error', () => undefined);
  await db.connect();
  return {
    url: url.toString(),
    db,
    drop: async () => {
      await db.end().catch(() => undefined);
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await admin.end();
    },
  };
}

export interface OwnPostgres {
  url: string;
  port: number;
  /** pg_ctl stop -m fast: connections are cut and new ones refused. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
}

/** The binaries of the newest PostgreSQL installed (Debian: /usr/lib/postgresql/<version>/bin). */
function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(path.join(base, v, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)');
  return path.join(base, newest, 'bin');
}

/** PostgreSQL refuses to run as root: as root, its tools run as the 'postgres' user. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root needs a postgres user to run a PostgreSQL server of its own');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * A PostgreSQL server of the test's own: initdb into a temporary folder, its own port on 127.0.0.1 and
 * its socket in that folder, never the machine's shared server. Durability is off (a test database).
 */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = postgresBin();
  const user = postgresUser();
  const dir = await tempDir('pg');
  const data = path.join(dir, 'data');
  if (user) await chown(dir, user.uid, user.gid);
  const port = await freePort();
  const tool = (name: string, args: string[]) =>
    run(path.join(bin, name), args, { cwd: dir, ...(user ? { uid: user.uid, gid: user.gid } : {}), env: { PATH: process.env.PATH ?? '', LC_ALL: 'C' } });
  await tool('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = async () => {
    await tool('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
  };
  const stop = async () => {
    await tool('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    close: async () => {
      await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

// ————————————————————————————————————————————— server processes

export type Role = 'all' | 'api' | 'worker';

export interface ServerOptions {
  role: Role;
  databaseUrl: string;
  /** DATA_DIR; several processes may share one. Default: a new folder. */
  dataDir?: string;
  /** TMPDIR of the process (os.tmpdir()); default: a new, empty folder of its own. */
  tmpDir?: string;
  /** Default: a free one. A restarted API keeps its port, as behind a load balancer. */
  port?: number;
  env?: Record<string, string>;
  /** Wait for /api/ready (default true). */
  waitReady?: boolean;
}

export interface ServerProcess {
  role: Role;
  url: string;
  port: number;
  dataDir: string;
  tmpDir: string;
  child: ChildProcess;
  pid: number;
  /** Every JSON log line so far. */
  lines: () => Record<string, unknown>[];
  output: () => string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop: () => Promise<number | null>;
  /** SIGKILL: no shutdown of any kind. */
  kill: () => Promise<void>;
  /** Neither exited nor killed. */
  alive: () => boolean;
}

/** Starts `node dist/node/server/main.js` with the given role against the given database. */
export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? (await tempDir(`${options.role}-data`));
  const tmpDir = options.tmpDir ?? (await tempDir(`${options.role}-tmpdir`));
  await mkdir(tmpDir, { recursive: true });
  const url = `http://127.0.0.1:${port}`;
  let out = '';
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      TMPDIR: tmpDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      ROLE: options.role,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: 'http://app.test',
      DATA_DIR: dataDir,
      DATABASE_URL: options.databaseUrl,
      DATABASE_POOL_SIZE: '4',
      JWT_SECRET,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const proc: ServerProcess = {
    role: options.role,
    url,
    port,
    dataDir,
    tmpDir,
    child,
    pid: child.pid!,
    output: () => out,
    lines: () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    exited,
    alive,
    stop: async () => {
      if (alive()) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
  };
  if (options.waitReady !== false) {
    await until(
      `${options.role} to answer /api/ready`,
      async () => {
        if (!alive()) throw new Error(`${options.role} exited with ${child.exitCode}:\n${out}`);
        return fetch(`${url}/api/ready`).then(
          (res) => res.ok,
          () => false,
        );
      },
      60_000,
      100,
    ).catch((error: unknown) => {
      child.kill('SIGKILL');
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${out}`);
    });
  }
  return proc;
}

/** Kills what still runs (a failed test) and removes the folders the processes used. */
export async function cleanUp(processes: ServerProcess[]): Promise<void> {
  for (const p of processes) await p.kill();
  const dirs = new Set(processes.flatMap((p) => [p.dataDir, p.tmpDir]));
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
}

/** The `workers` row id of a process (its pid is unique among the living). */
export async function processIdOf(db: pg.Client, proc: ServerProcess): Promise<string> {
  return until(`the worker row of pid ${proc.pid}`, async () => {
    const { rows } = await db.query<{ id: string }>('select id from workers where pid = $1', [proc.pid]);
    return rows[0]?.id;
  });
}

// ————————————————————————————————————————————— the product's calls

export const json = async (res: Response) => ({
  status: res.status,
  headers: res.headers,
  body: (await res.json()) as Record<string, unknown>,
});

export interface Company {
  companyId: string;
  email: string;
  headers: Record<string, string>;
  /** An authenticated JSON call to the given API process. */
  call: (api: ServerProcess, method: string, url: string, body?: object) => Promise<{ status: number; body: Record<string, unknown> }>;
}

/** A company signed up and in through the API (its e-mail confirmed in the database). */
export async function signUpCompany(api: ServerProcess, db: pg.Client): Promise<Company> {
  const email = `owner.${randomBytes(4).toString('hex')}@reliability.test`;
  const signup = await fetch(`${api.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ firstname: 'Rita', lastname: 'Reliable', email, companyName: `Reliable ${email}`, password: 'secret12', lang: 'en' }),
  });
  expect(signup.status).toBe(201);
  await db.query('update users set email_confirmed_at = now() where email = $1', [email]);
  const signin = await json(
    await fetch(`${api.url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'secret12' }),
    }),
  );
  expect(signin.status).toBe(200);
  const headers = { authorization: `Bearer ${String(signin.body.token)}`, 'content-type': 'application/json' };
  return {
    companyId: (signin.body.user as { company_id: string }).company_id,
    email,
    headers,
    call: async (target, method, url, body) => {
      const res = await fetch(`${target.url}${url}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
  };
}

/** Questions of the company, made through the API. */
export async function addQuestions(api: ServerProcess, me: Company, texts: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, text] of texts.entries()) {
    const q = await me.call(api, 'POST', '/api/questions/add', { company_id: me.companyId, text, order_position: i + 1 });
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    ids.push(String(q.body.id));
  }
  return ids;
}

export interface SentRequest {
  id: string;
  token: string;
  questionIds: string[];
}

/** A testimonial request sent to a customer through the API; its token read from the database. */
export async function sendRequest(api: ServerProcess, me: Company, db: pg.Client, questionIds: string[], customer = 'Cleo'): Promise<SentRequest> {
  const sent = await me.call(api, 'POST', '/api/testimonials/request', {
    customer_email: `${customer.toLowerCase().replace(/\W/g, '')}@client.test`,
    customer_name: customer,
    question_ids: questionIds,
    language: 'english',
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const id = (sent.body.testimonial as { id: string }).id;
  const { rows } = await db.query<{ token: string }>('select token from testimonial_requests where id = $1', [id]);
  return { id, token: rows[0]!.token, questionIds };
}

/**
 * The customer's save call as the recording page sends it: the fields, then one video per question
 * (the server reads no file before it knows the token).
 */
export async function saveForm(request: SentRequest, clips: string[], name = 'Cleo') {
  return multipart([
    { name: 'token', value: request.token },
    { name: 'testimonialId', value: request.id },
    { name: 'name', value: name },
    { name: 'consentVersion', value: 'image-rights-v1' },
    ...request.questionIds.flatMap((q, i) => [
      { name: `questionIds[${i}]`, value: q },
      { name: `bgColors[${i}]`, value: '#000000' },
    ]),
    ...(await Promise.all(
      clips.map(async (clip, i) => ({ name: 'videos', filename: `video${i}.webm`, content: await readFile(clip), type: 'video/webm' })),
    )),
  ]);
}

/** Sends a customer's answers; `from` is the customer's address as the load balancer reports it. */
export async function submitAnswers(api: ServerProcess, request: SentRequest, clips: string[], from = '10.0.0.1') {
  const form = await saveForm(request, clips);
  const res = await fetch(`${api.url}/api/public/testimonial/save`, {
    method: 'POST',
    headers: { ...form.headers, 'x-forwarded-for': from },
    body: form.payload,
  });
  const saved = await json(res);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return (saved.body.responses as { id: string; questionId: string }[]).map((r) => r.id);
}

/** Runs `fn` over `items`, at most `limit` at a time. */
export async function inBatches<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i]!, i);
      }
    }),
  );
  return results;
}
