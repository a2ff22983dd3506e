/**
 * Several formats at once, as a company asks for them (issue 31, decision 199): through the real product,
 * the four formats of an answer's export in one call (one job, one ffmpeg run from one decode) against
 * the same four formats asked for one by one, each call made when the previous one has finished (the
 * server refuses a second render of an answer while one runs). Measured from the first call to the last
 * format ready, for the enhanced export (card, subtitles, loudness) and for the original's. Alternating
 * runs, the fastest of each: the ffmpeg-level comparison is in formats.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TJob } from '../src/contract/api/jobs.schema.js';
import { EXPORT_PLATFORM_SPECS, EXPORT_PLATFORMS, type TExportPlatform, type TExportVideoType } from '../src/contract/api/studio.schema.js';
import { signUpCompany, type Company } from '../tests/e2e/support/fixtures.js';
import { startServer } from '../tests/e2e/support/server.js';
import { submit } from './answers.js';

const run = promisify(execFile);
const round = (n: number) => Math.round(n * 100) / 100;
const SECONDS = 10;
const SOURCE = { width: 1280, height: 720 };

/** The largest centred crop of the format's ratio in the answer's picture, as the crop editor proposes it. */
function centredCrop(platform: TExportPlatform) {
  const ratio = EXPORT_PLATFORM_SPECS[platform].ratio / (SOURCE.width / SOURCE.height);
  return ratio < 1 ? { x: (1 - ratio) / 2, y: 0, width: ratio, height: 1 } : { x: 0, y: (1 - 1 / ratio) / 2, width: 1, height: 1 / ratio };
}

async function finished(company: Company, jobId: string): Promise<void> {
  for (const deadline = Date.now() + 10 * 60_000; Date.now() < deadline; ) {
    const job = await company.api<TJob>('GET', `/api/jobs/${jobId}`);
    if (job.phase === 'ready') return;
    if (job.phase === 'failed') throw new Error(`job ${jobId} failed: ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${jobId} did not finish within 10 minutes`);
}

export async function formatsJobsBench(): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vr-bench-formats-jobs-'));
  const server = await startServer({ LOG_LEVEL: 'error', FREE_CREDITS: '10' });
  try {
    const answer = path.join(dir, 'answer.mp4');
    await run('ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${SOURCE.width}x${SOURCE.height}:rate=30:duration=${SECONDS}`, '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${SECONDS}`,
      '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', answer,
    ]);
    const company = await signUpCompany(server, { prefix: 'formats' });
    const { id } = await submit(server, company, [{ file: answer, name: 'answer.mp4' }]);
    await company.api('POST', `/api/testimonials/pay/${id}`, {});
    let responseId = '';
    for (const deadline = Date.now() + 5 * 60_000; !responseId && Date.now() < deadline; ) {
      const { testimonial } = await company.api<{ testimonial: { testimonial_responses: { id: string; poster_url?: string | null; video_url: string | null }[] } }>('GET', `/api/testimonials/request/${id}?company_id=${company.companyId}`);
      // Prepared: its poster made and its video transcoded to MP4 (as answers.ts waits for it).
      const ready = testimonial.testimonial_responses.find((r) => r.poster_url && r.video_url?.includes('.mp4'));
      if (ready) responseId = ready.id;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!responseId) throw new Error('the answer was not prepared within 5 minutes');
    await finished(company, (await company.api<{ jobId: string }>('POST', `/api/testimonials/response/${responseId}/generate-modified/intro`, { language: 'en' })).jobId);

    const exportCall = (videoType: TExportVideoType, platforms: TExportPlatform[]) => {
      const [first, ...rest] = platforms;
      return company.api<{ jobId: string }>('POST', `/api/testimonials/response/${responseId}/export-v2`, {
        platform: first,
        videoType,
        cropArea: centredCrop(first!),
        language: 'en',
        ...(rest.length ? { platforms: rest.map((platform) => ({ platform, cropArea: centredCrop(platform) })) } : {}),
      });
    };
    const timed = async (fn: () => Promise<void>) => {
      const started = performance.now();
      await fn();
      return (performance.now() - started) / 1000;
    };
    const results: Record<string, unknown> = {};
    for (const videoType of ['modified', 'original'] as const) {
      const oneCall = () => timed(async () => finished(company, (await exportCall(videoType, [...EXPORT_PLATFORMS])).jobId));
      const oneByOne = () =>
        timed(async () => {
          for (const platform of EXPORT_PLATFORMS) await finished(company, (await exportCall(videoType, [platform])).jobId);
        });
      const one = [await oneCall()];
      const separate = [await oneByOne()];
      separate.push(await oneByOne());
      one.push(await oneCall());
      const oneS = Math.min(...one);
      const separateS = Math.min(...separate);
      results[`export_four_formats_one_call_${videoType}_10s`] = { wall_s: round(oneS), one_by_one_wall_s: round(separateS), x_one_by_one: round(oneS / separateS) };
    }
    return results;
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
