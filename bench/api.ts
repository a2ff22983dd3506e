/**
 * `npm run bench:api`: the API under load, on this machine, against the built server (`npm start`'s
 * build) on the embedded database, compared with a bare Fastify route measured in the same run.
 *
 * 1. 100 connections for 10 s each on: a bare Fastify route answering a constant JSON (the ceiling),
 *    the customer's link check GET /api/public/testimonial/validate/{token}, and the company's
 *    authenticated GET /api/testimonials/requests. Target: no error, p99 under 100 ms, and at least
 *    40 % of the bare route's requests per second (`load_target_met`). Requests arrive as through the reference load
 *    balancer (TRUST_PROXY, one X-Forwarded-For address per simulated visitor), so per-address rate
 *    limits apply per visitor as in production.
 * 2. 50 customers at once each submit three 20 s answers: all must complete, none lost; reported is the
 *    time until every answer is transcoded and ready for viewing. The answers are what Chromium's
 *    recorder now writes (issue 18): 1280×720 H.264 with Opus in a fragmented MP4 at the recorder's
 *    bitrates; BENCH_CLIPS=webm sends VP8/Opus WebM instead (what it wrote before, re-encoded in full).
 * 3. A published answer's share page and embed (issue 19): p50 at 10 connections beside the bare route
 *    (target under 10 ms), their weight over the wire with brotli and gzip (target at most 30 KB before
 *    the video) and Lighthouse's mobile runs of both (targets 95 performance, 100 accessibility).
 *
 * Loopback only; every loop is bounded in count and time. BENCH_DATABASE_URL runs it on PostgreSQL
 * (point it at a scratch database), BENCH_API_SECONDS and BENCH_CUSTOMERS shorten it.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { readFile, rename } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { makeAnswerClip, signUpCompany, waitForMailLink, type Company } from '../tests/e2e/support/fixtures.js';
import { freePort, startServer, type RunningServer } from '../tests/e2e/support/server.js';
import { lighthousePage } from './lighthouse.js';

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);
const DURATION_S = Number(process.env.BENCH_API_SECONDS ?? 10);
const CONNECTIONS = 100;
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 50);

interface LoadFigures {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  non_2xx: number;
  requests: number;
}

let visitor = 0;
/** A distinct client address per request, as a load balancer would forward many visitors. */
const nextAddress = () => {
  visitor += 1;
  return `198.18.${(visitor >> 8) & 255}.${visitor & 255}`;
};

async function load(url: string, headers: Record<string, string> = {}, connections = CONNECTIONS): Promise<LoadFigures> {
  const result = await autocannon({
    url,
    connections,
    duration: DURATION_S,
    headers,
    requests: [
      {
        setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'x-forwarded-for': nextAddress() } }),
      },
    ],
  });
  return {
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non_2xx: result.non2xx,
    requests: result.requests.total,
  };
}

/** KB (1024 bytes) of a page as sent with brotli and with gzip: the bytes on the wire, not decompressed. */
async function overTheWire(url: string): Promise<{ br: number; gzip: number }> {
  const size = (encoding: string) =>
    new Promise<number>((resolve, reject) => {
      http
        .get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => resolve(Math.round((bytes / 1024) * 100) / 100));
        })
        .on('error', reject);
    });
  return { br: await size('br'), gzip: await size('gzip') };
}

/** A bare Fastify server in its own process answering a constant JSON: the machine's ceiling. */
async function startBare(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const code = `
    const Fastify = require('fastify');
    const app = Fastify({ logger: false });
    app.get('/bare', async () => ({ ok: true, name: 'bare' }));
    app.listen({ port: ${port}, host: '127.0.0.1' }).then(() => process.stdout.write('ready\\n'));
  `;
  const child = spawn(process.execPath, ['-e', code], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.on('exit', (c) => reject(new Error(`bare server exited ${c}`)));
  });
  return { url: `http://127.0.0.1:${port}/bare`, stop: () => child.kill('SIGTERM') };
}

async function pendingToken(server: RunningServer, company: Company, questionIds: string[], n: number): Promise<{ id: string; token: string }> {
  const email = `load.${Date.now()}.${n}@client.test`;
  const sent = await company.api<{ testimonial: { id: string } }>('POST', '/api/testimonials/request', {
    customer_email: email,
    customer_name: `Customer ${n}`,
    question_ids: questionIds,
    language: 'english',
  });
  const link = await waitForMailLink(server, email, '/testimonial/submit/');
  return { id: sent.testimonial.id, token: link.split('/testimonial/submit/')[1]! };
}

function multipartBody(parts: ({ name: string; value: string } | { name: string; filename: string; content: Buffer })[]) {
  const boundary = `----bench${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('filename' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: video/webm\r\n\r\n`), part.content, Buffer.from('\r\n'));
    } else chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

/** A 20 s answer as Chromium's recorder writes it with H.264 (media-support.ts): 1.5 Mb/s video, 96 kb/s Opus, fragmented MP4. */
async function chromiumMp4(i: number): Promise<string> {
  const file = path.join(os.tmpdir(), `vr-bench-chromium-${i}.mp4`);
  if (existsSync(file)) return file;
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=20', '-f', 'lavfi', '-i', `sine=frequency=${300 + 120 * i}:sample_rate=48000:duration=20`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '1500k', '-pix_fmt', 'yuv420p', '-c:a', 'libopus', '-b:a', '96k', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', `${file}.tmp.mp4`]);
  await rename(`${file}.tmp.mp4`, file);
  return file;
}

async function main() {
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-needed.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('build failed');
  const bare = await startBare();
  // Enough welcome credits to view every load testimonial; the request quota is per company per hour.
  // BENCH_DATABASE_URL: the same run on PostgreSQL (the fleet's database) instead of embedded PGlite.
  const database: Record<string, string> = process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL, JWT_SECRET: randomBytes(32).toString('hex') } : {};
  const server = await startServer({ LOG_LEVEL: 'error', TRUST_PROXY: '1', FREE_CREDITS: String(CUSTOMERS + 5), ...database });
  console.log(`database: ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}`);
  const results: Record<string, unknown> = {};
  try {
    const company = await signUpCompany(server, { prefix: 'bench' });
    const questionIds: string[] = [];
    for (const [i, text] of ['What was your challenge?', 'How did we help?', 'Would you recommend us?'].entries()) {
      questionIds.push((await company.api<{ id: string }>('POST', '/api/questions/add', { company_id: company.companyId, text, order_position: i + 1 })).id);
    }
    const probe = await pendingToken(server, company, questionIds, 0);

    // Warm-up, then each target in turn (never two at once: they share the two cores), each between two
    // runs of the bare route: this machine's speed drifts, so a target is compared with the mean of the
    // bare runs just before and after it.
    const validateUrl = `${server.url}/api/public/testimonial/validate/${probe.token}`;
    const listUrl = `${server.url}/api/testimonials/requests?company_id=${company.companyId}`;
    const auth = { authorization: `Bearer ${company.token}` };
    await load(bare.url);
    await load(validateUrl);
    await load(listUrl, auth);
    const bareRuns = [await load(bare.url)];
    const validate = await load(validateUrl);
    bareRuns.push(await load(bare.url));
    const list = await load(listUrl, auth);
    bareRuns.push(await load(bare.url));
    const meanRps = (a: LoadFigures, b: LoadFigures) => (a.rps + b.rps) / 2;
    results.bare_fastify = { ...bareRuns[1]!, rps_runs: bareRuns.map((r) => r.rps) };
    results.validate_token = validate;
    results.list_requests = list;
    results.validate_vs_bare = Math.round((validate.rps / meanRps(bareRuns[0]!, bareRuns[1]!)) * 1000) / 1000;
    results.list_vs_bare = Math.round((list.rps / meanRps(bareRuns[1]!, bareRuns[2]!)) * 1000) / 1000;
    const met = (x: LoadFigures, ratio: number) => x.errors === 0 && x.non_2xx === 0 && x.p99_ms < 100 && ratio >= 0.4;
    results.load_target_met = met(validate, results.validate_vs_bare as number) && met(list, results.list_vs_bare as number);

    // 50 customers, three 20 s answers each, all at once.
    const webm = process.env.BENCH_CLIPS === 'webm';
    const clips = await Promise.all([0, 1, 2].map((i) => (webm ? makeAnswerClip({ seconds: 20, tone: 300 + 120 * i }) : chromiumMp4(i)).then((f) => readFile(f))));
    results.clips = webm ? 'VP8/Opus WebM 640×360' : 'H.264/Opus fragmented MP4 1280×720 (as Chromium records)';
    const requests = [];
    for (let n = 1; n <= CUSTOMERS; n++) requests.push(await pendingToken(server, company, questionIds, n));
    const started = performance.now();
    const outcomes = await Promise.all(
      requests.map(async (r, n) => {
        // The link's fields first, then the videos, as the recording page sends them (the server reads the token before any file).
        const form = multipartBody([
          { name: 'token', value: r.token },
          { name: 'testimonialId', value: r.id },
          ...questionIds.map((id, i) => ({ name: `questionIds[${i}]`, value: id })),
          ...questionIds.map((_, i) => ({ name: `bgColors[${i}]`, value: '#000000' })),
          { name: 'name', value: `Customer ${n}` },
          { name: 'consentVersion', value: 'image-rights-v1' },
          ...clips.map((content, i) => ({ name: 'videos', filename: `video${i}.${webm ? 'webm' : 'mp4'}`, content })),
        ]);
        for (let attempt = 1; attempt <= 3; attempt++) {
          const res = await fetch(`${server.url}/api/public/testimonial/save`, {
            method: 'POST',
            headers: { 'content-type': form.type, 'x-forwarded-for': nextAddress() },
            body: form.body,
          }).catch(() => null);
          if (res?.status === 200) return 'saved';
          if (res && res.status < 500) return `refused ${res.status} ${await res.text()}`;
        }
        return 'failed after 3 attempts';
      }),
    );
    const uploadedMs = performance.now() - started;
    const refused = outcomes.filter((o) => o !== 'saved');
    results.customers = CUSTOMERS;
    results.submissions_saved = outcomes.length - refused.length;
    if (refused.length) results.submissions_refused = refused.slice(0, 3);
    results.all_uploads_answered_s = Math.round(uploadedMs / 100) / 10;

    // Ready for viewing: every answer transcoded (MP4 and poster), as the company sees it once paid.
    // Only what was saved can be viewed; a refusal is reported above (submissions_refused).
    const saved = requests.filter((_, n) => outcomes[n] === 'saved');
    for (const r of saved) await company.api('POST', `/api/testimonials/pay/${r.id}`, {});
    const pending = new Set(saved.map((r) => r.id));
    const deadline = Date.now() + 30 * 60_000;
    while (pending.size && Date.now() < deadline) {
      for (const id of [...pending]) {
        const { testimonial } = await company.api<{ testimonial: { testimonial_responses: { video_url: string | null; poster_url?: string | null }[] } }>(
          'GET',
          `/api/testimonials/request/${id}?company_id=${company.companyId}`,
        );
        // Prepared: played from the stored answer (answer.mp4), not from the upload, which may be an MP4 too.
        const ready = testimonial.testimonial_responses.length === 3 && testimonial.testimonial_responses.every((a) => a.poster_url && a.video_url?.includes('/answer.mp4'));
        if (ready) pending.delete(id);
      }
      if (pending.size) await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    results.answers_ready = (saved.length - pending.size) * 3;
    results.answers_lost = pending.size * 3;
    results.all_ready_for_viewing_s = Math.round((performance.now() - started) / 100) / 10;

    // A published answer (issue 19): its share page and its embed at 10 connections beside the bare
    // route, what they weigh over the wire (the whole page before the video: HTML with its inline CSS
    // and script), and Lighthouse's mobile run of the share page.
    const published = saved[0];
    if (published) {
      const { testimonial } = await company.api<{ testimonial: { testimonial_responses: { id: string }[] } }>(
        'GET',
        `/api/testimonials/request/${published.id}?company_id=${company.companyId}`,
      );
      const pub = await company.api<{ url: string; embedUrl: string }>('POST', '/api/publications', {
        testimonialId: published.id,
        responseId: testimonial.testimonial_responses[0]!.id,
      });
      await load(pub.url, {}, 10);
      results.bare_fastify_10_connections = await load(bare.url, {}, 10);
      results.share_page = await load(pub.url, {}, 10);
      results.embed_page = await load(pub.embedUrl, {}, 10);
      results.share_page_kb = await overTheWire(pub.url);
      results.embed_page_kb = await overTheWire(pub.embedUrl);
      results.share_page_lighthouse = await lighthousePage(pub.url, { runs: Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3) });
      results.embed_page_lighthouse = await lighthousePage(pub.embedUrl, { runs: Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3) });
    }
  } finally {
    await server.stop();
    bare.stop();
  }
  console.table(Object.fromEntries(Object.entries(results).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : v])));
}

await main();
