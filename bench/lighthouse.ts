/**
 * Lighthouse 12 in its default mobile mode (a mid-range phone on a slow 4G network, simulated) against
 * the landing page and the real pages a customer opens (recording link, collection link, unsubscribe
 * page) of a running server. Each page runs `runs` times in a
 * fresh headless Chromium (5 runs unless told); the median run by performance score is kept, with its FCP,
 * LCP and bytes over the wire (all resources, and scripts alone), beside every run and the worst one. Lighthouse is pinned to 12.2.3: 13 needs Node 22.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const CLI = path.join(root, 'node_modules/lighthouse/cli/index.js');

export interface LighthouseFigures {
  /** 0–100, Lighthouse's performance category. */
  performance: number;
  /** 0–100, Lighthouse's accessibility category. */
  accessibility: number;
  fcp_s: number;
  lcp_s: number;
  /** Total blocking time and cumulative layout shift, the other two parts of the score. */
  tbt_ms: number;
  cls: number;
  /** Everything the page moved over the wire, in KB (1 KB = 1024 bytes). */
  total_kb: number;
  /** Scripts alone, over the wire (compressed when the server compressed them). */
  js_kb: number;
  /** Every run's score, to show the spread. */
  scores: number[];
  /** Every run: score, LCP (s) and TBT (ms), in the order they ran. */
  runs: string[];
  /** The worst run by score (then by LCP): the one a target is held to. */
  worst: { performance: number; lcp_s: number; tbt_ms: number };
}

interface NetworkRequest {
  resourceType?: string;
  transferSize?: number;
}

interface Report {
  categories: { performance: { score: number | null }; accessibility?: { score: number | null } };
  audits: Record<string, { numericValue?: number; details?: { items?: NetworkRequest[] } }>;
  runtimeError?: { code: string; message: string };
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Lighthouse sometimes loses its trace on this machine (NO_NAVSTART) and says to run again: it does, twice. */
async function lighthouseOnce(url: string, chromePath: string, attempt = 1): Promise<Omit<LighthouseFigures, 'scores' | 'runs' | 'worst'>> {
  try {
    return await lighthouseRun(url, chromePath);
  } catch (error) {
    if (attempt >= 3) throw error;
    return lighthouseOnce(url, chromePath, attempt + 1);
  }
}

async function lighthouseRun(url: string, chromePath: string): Promise<Omit<LighthouseFigures, 'scores' | 'runs' | 'worst'>> {
  const { stdout } = await run(
    process.execPath,
    [
      CLI,
      url,
      '--output=json',
      '--output-path=stdout',
      '--only-categories=performance,accessibility',
      '--quiet',
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-component-update --disable-sync',
    ],
    { env: { ...process.env, CHROME_PATH: chromePath }, maxBuffer: 256 * 1024 * 1024, timeout: 240_000 },
  );
  const report = JSON.parse(stdout) as Report;
  if (report.runtimeError) throw new Error(`Lighthouse on ${url}: ${report.runtimeError.code} ${report.runtimeError.message}`);
  const requests = report.audits['network-requests']?.details?.items ?? [];
  const bytes = (filter: (r: NetworkRequest) => boolean) =>
    round(requests.filter(filter).reduce((sum, r) => sum + (r.transferSize ?? 0), 0) / 1024, 1);
  return {
    performance: Math.round((report.categories.performance.score ?? 0) * 100),
    accessibility: Math.round((report.categories.accessibility?.score ?? 0) * 100),
    fcp_s: round((report.audits['first-contentful-paint']?.numericValue ?? NaN) / 1000, 2),
    lcp_s: round((report.audits['largest-contentful-paint']?.numericValue ?? NaN) / 1000, 2),
    tbt_ms: Math.round(report.audits['total-blocking-time']?.numericValue ?? NaN),
    cls: round(report.audits['cumulative-layout-shift']?.numericValue ?? NaN, 3),
    total_kb: bytes(() => true),
    js_kb: bytes((r) => r.resourceType === 'Script'),
  };
}

/** `runs` Lighthouse runs of one page (5 unless told): the median run by score (its own FCP, LCP and bytes), every run and the worst. */
export async function lighthousePage(url: string, options: { runs?: number; chromePath?: string } = {}): Promise<LighthouseFigures> {
  const chromePath = options.chromePath ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromePath)) throw new Error(`no Chromium at ${chromePath} (set CHROME_PATH)`);
  const results = [];
  for (let i = 0; i < (options.runs ?? 5); i++) results.push(await lighthouseOnce(url, chromePath));
  const sorted = [...results].sort((a, b) => a.performance - b.performance || b.lcp_s - a.lcp_s);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const worst = sorted[0]!;
  return {
    ...median,
    scores: results.map((r) => r.performance),
    runs: results.map((r) => `${r.performance} (LCP ${r.lcp_s} s, TBT ${r.tbt_ms} ms)`),
    worst: { performance: worst.performance, lcp_s: worst.lcp_s, tbt_ms: worst.tbt_ms },
  };
}

/** The customer's pages of one company, made through the API as a business and its customer would. */
export interface CustomerPages {
  /** The private recording link of the invitation. */
  recording: string;
  /** The unsubscribe page the invitation links to (issue 30). */
  unsubscribe: string;
  /** A public collection link of the same questions, /c/{slug} (issue 30). */
  collect: string;
}

/**
 * Real customer pages on `serverUrl`: a confirmed company with two questions, a request sent to a
 * customer and a collection link, through the API and the development outbox, as the end-to-end journeys
 * make them.
 */
export async function makeCustomerPages(serverUrl: string): Promise<CustomerPages> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const json = async <T>(pathname: string, body?: unknown, token?: string): Promise<T> => {
    const res = await fetch(`${serverUrl}${pathname}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${pathname} → ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };
  const mailLink = async (to: string, needle: string): Promise<string> => {
    for (let i = 0; i < 120; i++) {
      const mails = await json<{ links: string[] }[]>(`/dev/outbox/messages.json?to=${encodeURIComponent(to)}`);
      const link = mails.flatMap((m) => m.links).find((l) => l.includes(needle));
      if (link) return link;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`no e-mail to ${to} with ${needle}`);
  };
  const email = `bench.${stamp}@bench.test`;
  const password = 'bench-password-42';
  await json('/api/auth/signup', { firstname: 'Olivia', lastname: 'Baker', email, companyName: `Bright Bakery ${stamp}`, password, lang: 'en' });
  await fetch(await mailLink(email, '/api/auth/confirm-email'), { redirect: 'manual' });
  const session = await json<{ token: string; user: { company_id: string } }>('/api/auth/signin', { email, password });
  const questionIds: string[] = [];
  for (const [i, text] of ['What problem did we help you solve?', 'What would you tell a friend about working with us?'].entries()) {
    const question = await json<{ id: string }>('/api/questions/add', { company_id: session.user.company_id, text, order_position: i + 1 }, session.token);
    questionIds.push(question.id);
  }
  const customerEmail = `customer.${stamp}@bench.test`;
  await json(
    '/api/testimonials/request',
    { customer_email: customerEmail, customer_name: 'Claire Dubois', customer_position: 'Head of Sales', question_ids: questionIds, language: 'english', gift: null },
    session.token,
  );
  const link = await mailLink(customerEmail, '/testimonial/submit/');
  const unsubscribe = await mailLink(customerEmail, '/unsubscribe/');
  const collection = await json<{ url: string }>(
    '/api/collection-links',
    { name: 'Bakery counter', question_ids: questionIds, language: 'english', gift: null, background_color: '#1f2937' },
    session.token,
  );
  // The e-mail and the link name APP_URL; the bench's server may answer on another address.
  const local = (url: string) => new URL(new URL(url).pathname, serverUrl).toString();
  return { recording: local(link), unsubscribe: local(unsubscribe), collect: local(collection.url) };
}

const PAGES = ['landing', 'developers', 'recording', 'collect', 'unsubscribe'] as const;
type Page = (typeof PAGES)[number];

/**
 * Lighthouse on the landing page, the API reference (/developers/api, issue 32) and on the pages a customer
 * opens, fresh ones of the server at `serverUrl`: the recording link, a collection link (/c/{slug}) and the
 * unsubscribe page.
 */
export async function lighthouseBench(serverUrl: string, options: { runs?: number; pages?: ReadonlyArray<Page> } = {}) {
  const pages = options.pages ?? PAGES;
  const results: Record<string, LighthouseFigures> = {};
  if (pages.includes('landing')) results.lighthouse_landing = await lighthousePage(`${serverUrl}/`, options);
  if (pages.includes('developers')) results.lighthouse_developers = await lighthousePage(`${serverUrl}/developers/api`, options);
  const customer = pages.some((p) => p !== 'landing' && p !== 'developers') ? await makeCustomerPages(serverUrl) : undefined;
  for (const page of ['recording', 'collect', 'unsubscribe'] as const) {
    if (customer && pages.includes(page)) results[`lighthouse_${page}`] = await lighthousePage(customer[page], options);
  }
  return results;
}

// `tsx bench/lighthouse.ts http://127.0.0.1:3000`: Lighthouse alone, against a server already running
// (another build, for a before/after comparison).
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const url = process.argv[2];
  if (!url) {
    console.error(`usage: tsx bench/lighthouse.ts <server url> [runs] [${PAGES.join('|')}]`);
    process.exit(2);
  }
  const page = PAGES.find((p) => p === process.argv[4]);
  const figures = await lighthouseBench(url.replace(/\/$/, ''), {
    runs: Number(process.argv[3] ?? 5),
    ...(page ? { pages: [page] } : {}),
  });
  console.log(JSON.stringify(figures, null, 2));
}
