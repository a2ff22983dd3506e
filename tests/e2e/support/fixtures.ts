/**
 * Accounts and testimonials for the journeys, made through the product's own HTTP API and e-mails
 * (sign-up, confirmation link from the dev outbox, questions, request, the customer's save call with
 * real clips made by ffmpeg), so that every journey starts from what a user would really have.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import type { RunningServer } from './server.js';

const run = promisify(execFile);
const clipDir = path.join(os.tmpdir(), 'vouchreel-e2e-clips');
let counter = 0;

interface OutboxMessage {
  to: string[] | string;
  subject: string;
  links: string[];
}

export interface Company {
  email: string;
  password: string;
  companyName: string;
  companyId: string;
  /** Access token (15 minutes), for API calls made by the test itself. */
  token: string;
  /** An authenticated JSON call to the API; throws on a status other than 2xx. */
  api: <T = unknown>(method: string, url: string, body?: unknown) => Promise<T>;
}

/** Links of the e-mails sent to `to`, waiting up to 30 s for one that contains `needle`. */
export async function waitForMailLink(server: RunningServer, to: string, needle: string): Promise<string> {
  for (let i = 0; i < 120; i++) {
    const res = await fetch(`${server.url}/dev/outbox/messages.json?to=${encodeURIComponent(to)}`);
    const mails = (await res.json()) as OutboxMessage[];
    const link = mails.flatMap((m) => m.links).find((l) => l.includes(needle));
    if (link) return link;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no e-mail to ${to} with a link containing ${needle}`);
}

/** A confirmed company account, signed in through the API. */
export async function signUpCompany(server: RunningServer, options: { lang?: 'en' | 'fr'; prefix?: string } = {}): Promise<Company> {
  counter += 1;
  const stamp = `${Date.now()}${counter}`;
  const email = `${options.prefix ?? 'owner'}.${stamp}@studio.test`;
  const password = 'secret12';
  const companyName = `Studio ${stamp}`;
  const signup = await fetch(`${server.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ firstname: 'Alex', lastname: 'Martin', email, companyName, password, lang: options.lang ?? 'en' }),
  });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  await fetch(await waitForMailLink(server, email, '/api/auth/confirm-email'), { redirect: 'manual' });
  const signIn = async () => {
    const signin = await fetch(`${server.url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (signin.status !== 200) throw new Error(`signin failed: ${signin.status} ${await signin.text()}`);
    return (await signin.json()) as { token: string; user: { company_id: string } };
  };
  const session = await signIn();
  let token = session.token;
  const api = async <T,>(method: string, url: string, body?: unknown): Promise<T> => {
    const call = () =>
      fetch(`${server.url}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    let res = await call();
    // The access token lasts 15 minutes: a long journey or bench signs in again once, as the app would refresh.
    if (res.status === 401 && ((await res.clone().json()) as { errorKey?: string }).errorKey === 'sessionExpired') {
      token = (await signIn()).token;
      res = await call();
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return { email, password, companyName, companyId: session.user.company_id, token: session.token, api };
}

/** Signs `company` in through the sign-in page and waits for the dashboard. */
export async function signInInBrowser(page: Page, server: RunningServer, company: Pick<Company, 'email' | 'password'>): Promise<void> {
  await page.goto(`${server.url}/signin`);
  await page.fill('input[name="email"]', company.email);
  await page.fill('input[name="password"]', company.password);
  await page.click('[data-testid="signin-submit"]');
  await page.waitForURL(`${server.url}/dashboard`);
}

async function cached(name: string, make: (tmp: string) => Promise<void>): Promise<string> {
  await mkdir(clipDir, { recursive: true });
  const file = path.join(clipDir, name);
  if (existsSync(file)) return file;
  const tmp = path.join(clipDir, `${process.pid}.${Math.random().toString(16).slice(2)}.${name}`);
  await make(tmp);
  await rename(tmp, file);
  return file;
}

/**
 * A WebM answer as a browser records it (VP8 + Opus, 640×360): a test pattern with a tone, or, with
 * `speech`, the sentence spoken by flite's 'slt' voice (clear enough for the offline transcriber).
 */
export async function makeAnswerClip(options: { seconds?: number; tone?: number; speech?: string } = {}): Promise<string> {
  const seconds = options.seconds ?? 3;
  if (options.speech) {
    // The whole sentence names the clip: sentences sharing their first words must not share a clip.
    const key = createHash('sha256').update(options.speech).digest('hex').slice(0, 24);
    const wav = await cached(`speech-${key}.wav`, async (tmp) => {
      await run('flite', ['-voice', 'slt', '-t', options.speech!, '-o', tmp]);
    });
    return cached(`speech-${key}.webm`, async (tmp) => {
      await run('ffmpeg', ['-hide_banner', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-i', wav, '-af', 'apad=pad_dur=0.5', '-shortest',
        '-c:v', 'libvpx', '-b:v', '400k', '-deadline', 'realtime', '-cpu-used', '8', '-c:a', 'libopus', '-ar', '48000', '-f', 'webm', tmp]);
    });
  }
  const tone = options.tone ?? 440;
  return cached(`answer-${seconds}s-${tone}.webm`, async (tmp) => {
    await run('ffmpeg', ['-hide_banner', '-y', '-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=25:duration=${seconds}`,
      '-f', 'lavfi', '-i', `sine=frequency=${tone}:sample_rate=48000:duration=${seconds}`,
      '-c:v', 'libvpx', '-b:v', '400k', '-deadline', 'realtime', '-cpu-used', '8', '-c:a', 'libopus', '-f', 'webm', tmp]);
  });
}

export interface RecordedTestimonial {
  id: string;
  customerName: string;
  customerEmail: string;
  questions: { id: string; text: string }[];
}

/**
 * A testimonial request of `company`, sent by e-mail and answered by the customer through the real
 * save call (one clip per question). Unpaid. Until the transcode job has run, the original upload plays.
 */
export async function recordTestimonial(
  server: RunningServer,
  company: Company,
  options: { questions?: string[]; customerName?: string; language?: 'english' | 'french'; clips?: { seconds?: number; tone?: number; speech?: string }[] } = {},
): Promise<RecordedTestimonial> {
  counter += 1;
  const texts = options.questions ?? ['What did you like most about working with us?'];
  const existing = await company.api<{ id: string; text: string; order_position: number }[]>('GET', `/api/questions/list?company_id=${company.companyId}`);
  const questions: { id: string; text: string }[] = [];
  for (const text of texts) {
    const found = existing.find((q) => q.text === text);
    if (found) questions.push({ id: found.id, text });
    else {
      const added = await company.api<{ id: string }>('POST', '/api/questions/add', { company_id: company.companyId, text, order_position: existing.length + questions.length + 1 });
      questions.push({ id: added.id, text });
    }
  }
  const customerName = options.customerName ?? 'Claire Dubois';
  const customerEmail = `customer.${Date.now()}${counter}@client.test`;
  const sent = await company.api<{ testimonial: { id: string } }>('POST', '/api/testimonials/request', {
    customer_email: customerEmail,
    customer_name: customerName,
    customer_position: 'Head of Marketing',
    question_ids: questions.map((q) => q.id),
    language: options.language ?? 'english',
  });
  const link = await waitForMailLink(server, customerEmail, '/testimonial/submit/');
  const token = link.split('/testimonial/submit/')[1]!;

  const boundary = `----vouchreel${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  const field = (name: string, value: string) => chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  // The fields first, as the recording page sends them: the server reads no file before the token.
  field('token', token);
  field('testimonialId', sent.testimonial.id);
  field('name', customerName);
  field('consentVersion', 'image-rights-v1');
  for (const [i, question] of questions.entries()) {
    field(`questionIds[${i}]`, question.id);
    field(`bgColors[${i}]`, '#000000');
  }
  for (const i of questions.keys()) {
    const clip = await readFile(await makeAnswerClip(options.clips?.[i] ?? { tone: 300 + 110 * i }));
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="videos"; filename="video${i}.webm"\r\nContent-Type: video/webm\r\n\r\n`), clip, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const saved = await fetch(`${server.url}/api/public/testimonial/save`, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: Buffer.concat(chunks),
  });
  if (saved.status !== 200) throw new Error(`save failed: ${saved.status} ${await saved.text()}`);
  return { id: sent.testimonial.id, customerName, customerEmail, questions };
}
