/**
 * Answer preparation benchmark (issue 18), through the real product: a customer's answer is uploaded
 * through the save call and followed until the company can view it.
 * - Upload → viewable of one 20 s H.264/AAC MP4 (what Safari and current Chrome record): the answer is
 *   remuxed. Compared with a bare full re-encode of the same file (the work the worker did before).
 * - The stored answers of a quiet WebM, a clipped MP4 and a Safari-style fragmented MP4 whose picture
 *   starts 67 ms after its sound: loudness (EBU R128) and how far picture and sound start and end apart.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { signUpCompany, waitForMailLink, type Company } from '../tests/e2e/support/fixtures.js';
import { startServer, type RunningServer } from '../tests/e2e/support/server.js';
import { avDrift, loudness } from '../src/server/test/av.js';

const run = promisify(execFile);
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

type Answer = { video_url: string | null; poster_url?: string | null };

async function submit(server: RunningServer, company: Company, files: { file: string; name: string }[]): Promise<{ id: string; savedAt: number }> {
  const questionIds: string[] = [];
  for (const [i] of files.entries()) {
    questionIds.push((await company.api<{ id: string }>('POST', '/api/questions/add', { company_id: company.companyId, text: `Bench question ${Date.now()}.${i}?`, order_position: i + 1 })).id);
  }
  const email = `answers.${Date.now()}@client.test`;
  const sent = await company.api<{ testimonial: { id: string } }>('POST', '/api/testimonials/request', { customer_email: email, customer_name: 'Sam Bench', question_ids: questionIds, language: 'english' });
  const token = (await waitForMailLink(server, email, '/testimonial/submit/')).split('/testimonial/submit/')[1]!;
  const form = new FormData();
  form.set('token', token);
  form.set('testimonialId', sent.testimonial.id);
  form.set('name', 'Sam Bench');
  form.set('consentVersion', 'image-rights-v1');
  questionIds.forEach((id, i) => {
    form.set(`questionIds[${i}]`, id);
    form.set(`bgColors[${i}]`, '#000000');
  });
  for (const f of files) form.append('videos', new Blob([await readFile(f.file)], { type: f.name.endsWith('.webm') ? 'video/webm' : 'video/mp4' }), f.name);
  const res = await fetch(`${server.url}/api/public/testimonial/save`, { method: 'POST', body: form });
  if (res.status !== 200) throw new Error(`save: ${res.status} ${await res.text()}`);
  return { id: sent.testimonial.id, savedAt: performance.now() };
}

/** Polls the company's view of the testimonial every 50 ms until every answer plays; the answers then. */
async function viewable(company: Company, id: string): Promise<Answer[]> {
  await company.api('POST', `/api/testimonials/pay/${id}`, {});
  for (const deadline = Date.now() + 5 * 60_000; Date.now() < deadline; ) {
    const { testimonial } = await company.api<{ testimonial: { testimonial_responses: Answer[] } }>('GET', `/api/testimonials/request/${id}?company_id=${company.companyId}`);
    const answers = testimonial.testimonial_responses;
    if (answers.length > 0 && answers.every((a) => a.poster_url && a.video_url?.includes('.mp4'))) return answers;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the answers were not viewable within 5 minutes');
}

export async function answersBench(): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vr-bench-answers-'));
  const server = await startServer({ LOG_LEVEL: 'error', FREE_CREDITS: '10' });
  try {
    const speech = path.join(dir, 'speech.wav');
    await run('flite', ['-voice', 'slt', '-t', 'Working with this team was a great experience. They listened, they delivered on time, and our sales grew by thirty percent in three months.', '-o', speech]);
    const clip = async (name: string, o: { gainDb: number; codecs: string[]; size?: string }) => {
      const file = path.join(dir, name);
      await run('ffmpeg', ['-v', 'error', '-y', '-stream_loop', '-1', '-i', speech, '-f', 'lavfi', '-i', `testsrc2=size=${o.size ?? '1280x720'}:rate=30:duration=20`, '-map', '1:v', '-map', '0:a', '-t', '20', '-af', `volume=${o.gainDb}dB,alimiter=limit=1`, ...o.codecs, file]);
      return file;
    };
    const h264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-b:v', '1500k'];
    const mp4 = await clip('answer.mp4', { gainDb: 0, codecs: [...h264, '-c:a', 'aac'] });

    // One 20 s H.264/AAC answer: upload → viewable, against a bare full re-encode of it.
    const company = await signUpCompany(server, { prefix: 'answers' });
    const one = await submit(server, company, [{ file: mp4, name: 'video0.mp4' }]);
    await viewable(company, one.id);
    const viewableS = (performance.now() - one.savedAt) / 1000;
    const started = performance.now();
    await run('ffmpeg', ['-v', 'error', '-y', '-i', mp4, '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', path.join(dir, 'bare.mp4')]);
    const bareS = (performance.now() - started) / 1000;

    // Three difficult answers: their stored files' loudness and picture/sound drift.
    const quiet = await clip('quiet.webm', { gainDb: -30, size: '640x480', codecs: ['-c:v', 'libvpx', '-b:v', '800k', '-deadline', 'realtime', '-cpu-used', '8', '-c:a', 'libopus'] });
    const clipped = await clip('clipped.mp4', { gainDb: 24, codecs: [...h264, '-c:a', 'aac'] });
    const plain = await clip('safari-plain.mp4', { gainDb: -4, codecs: [...h264, '-c:a', 'aac'] });
    const safari = path.join(dir, 'safari.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-i', plain, '-itsoffset', '0.067', '-i', plain, '-map', '1:v', '-map', '0:a', '-c', 'copy', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', safari]);
    const inputs = { quiet_webm: quiet, clipped_mp4: clipped, safari_fmp4: safari };
    const before: Record<string, unknown> = {};
    for (const [name, file] of Object.entries(inputs)) {
      const [level, drift] = await Promise.all([loudness(file), avDrift(file)]);
      before[name] = { lufs: level.integrated, true_peak_db: level.truePeak, start_drift_ms: round(drift.start * 1000, 1), end_drift_ms: round(drift.end * 1000, 1) };
    }
    const three = await submit(server, company, Object.values(inputs).map((file, i) => ({ file, name: `video${i}${path.extname(file)}` })));
    const answers = await viewable(company, three.id);
    const after: Record<string, unknown> = {};
    for (const [i, name] of Object.keys(inputs).entries()) {
      const stored = path.join(dir, `stored-${name}.mp4`);
      await writeFile(stored, Buffer.from(await (await fetch(answers[i]!.video_url!)).arrayBuffer()));
      const [level, drift] = await Promise.all([loudness(stored), avDrift(stored)]);
      after[name] = { lufs: level.integrated, true_peak_db: level.truePeak, start_drift_ms: round(drift.start * 1000, 1), end_drift_ms: round(drift.end * 1000, 1) };
    }
    return {
      answer_upload_to_viewable_20s_h264: { wall_s: round(viewableS), bare_full_reencode_s: round(bareS), x_bare_reencode: round(viewableS / bareS) },
      answer_inputs_before: before,
      answer_stored_after: after,
    };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

// Issue 31: the drafts bench (drafts.ts) sends its testimonial the same way.
export { submit };
