/**
 * Drafts on arrival (issue 31), through the real product: a company that prepares drafts receives a
 * testimonial of three 20 s spoken answers (flite, H.264/AAC MP4 at 640×480) and the draft is followed
 * until it plays. The target: the draft's own work (transcribing the three answers with the offline
 * engine, then the merged render with cards and subtitles) within 1.5× the answers' total length; the
 * whole arrival (upload → answers prepared → draft ready) is measured beside it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_VIDEO_STYLE } from '../src/contract/constants.js';
import type { TDraft } from '../src/contract/api/testimonials.schema.js';
import type { TJob } from '../src/contract/api/jobs.schema.js';
import { signUpCompany } from '../tests/e2e/support/fixtures.js';
import { startServer } from '../tests/e2e/support/server.js';
import { submit } from './answers.js';

const run = promisify(execFile);
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const SPEECH = [
  'Working with this team was a great experience. I recommend them to everyone. They listened and delivered on time.',
  'Our sales grew by thirty percent in three months. The reports are clear and the support answers within the hour.',
  'I would hire them again tomorrow without hesitation. Ask them for a demo, you will not regret it.',
];
const ANSWER_SECONDS = 20;

export async function draftsBench(): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vr-bench-drafts-'));
  const server = await startServer({ LOG_LEVEL: 'error', FREE_CREDITS: '10', DRAFTS: 'on' });
  try {
    const files: { file: string; name: string }[] = [];
    for (const [i, text] of SPEECH.entries()) {
      const wav = path.join(dir, `speech${i}.wav`);
      await run('flite', ['-voice', 'slt', '-t', text, '-o', wav]);
      const file = path.join(dir, `answer${i}.mp4`);
      await run('ffmpeg', [
        '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=640x480:rate=30:duration=${ANSWER_SECONDS}`, '-stream_loop', '-1', '-i', wav, '-t', String(ANSWER_SECONDS),
        '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ar', '48000', '-movflags', '+faststart', file,
      ]);
      files.push({ file, name: `answer${i}.mp4` });
    }
    const company = await signUpCompany(server, { prefix: 'drafts' });
    await company.api('POST', '/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, prepare_drafts: true });
    const { id, savedAt } = await submit(server, company, files);
    let draft: TDraft | null = null;
    for (const deadline = Date.now() + 10 * 60_000; Date.now() < deadline; ) {
      const { testimonial } = await company.api<{ testimonial: { draft?: TDraft | null } }>('GET', `/api/testimonials/request/${id}?company_id=${company.companyId}`);
      draft = testimonial.draft ?? null;
      if (draft?.phase === 'ready' || draft?.phase === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const arrivalS = (performance.now() - savedAt) / 1000;
    if (draft?.phase !== 'ready') throw new Error(`the draft was not made: ${JSON.stringify(draft)}`);
    const job = await company.api<TJob>('GET', `/api/jobs/${draft.job_id}`);
    const workS = (Date.parse(job.finishedAt!) - Date.parse(job.startedAt!)) / 1000;
    const total = ANSWER_SECONDS * SPEECH.length;
    return {
      draft_three_20s_answers: {
        draft_work_s: round(workS),
        x_answers_duration: round(workS / total),
        target_x: 1.5,
        arrival_to_draft_s: round(arrivalS),
        arrival_x_answers_duration: round(arrivalS / total),
        subtitled: draft.subtitled,
        duration_s: draft.duration_seconds,
      },
    };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
