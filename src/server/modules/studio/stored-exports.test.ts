/**
 * Stored exports kept side by side (decision 161): the detail call lists, for each answer and for the
 * merged video, the latest finished export of each format and version. The export jobs are written as
 * the worker leaves them (phase 'ready', an output key holding the job's id), so no video is rendered
 * here; studio-export.test.ts makes a 9:16 and a 16:9 export through the worker and reads them back.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TExportPlatform, TExportVideoType } from '../../../contract/api/studio.schema.js';
import type { TStoredExport } from '../../../contract/api/testimonials.schema.js';
import { companies, jobs, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';

type Me = Awaited<ReturnType<typeof signedInCompany>>;

describe('stored exports, one per format and version', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function testimonialOf(me: Me, paid: boolean) {
    const tm = await completedTestimonial(t, me);
    if (paid) {
      await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
      expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);
    }
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    const detail = async () => {
      const res = await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().testimonial;
    };
    return { tm, response: response!, detail };
  }

  let minute = 0;
  /** A finished export job as the worker records it, finished a minute after the previous one; `phase` other than ready leaves no output. */
  async function exportJob(
    me: Me,
    subject: { requestId: string; responseId?: string },
    platform: TExportPlatform,
    videoType: TExportVideoType,
    phase: 'ready' | 'failed' | 'running' = 'ready',
  ): Promise<string> {
    minute += 1;
    const finishedAt = new Date(Date.UTC(2026, 10, 27, 9, minute));
    const [row] = await t.ctx.db
      .insert(jobs)
      .values({
        companyId: me.companyId,
        kind: 'export',
        requestId: subject.requestId,
        responseId: subject.responseId ?? null,
        params: { platform, videoType, cropArea: { x: 0, y: 0, width: 1, height: 1 }, language: 'en' },
        phase,
        progress: phase === 'ready' ? 100 : 0,
        createdAt: new Date(finishedAt.getTime() - 30_000),
        finishedAt: phase === 'running' ? null : finishedAt,
      })
      .returning({ id: jobs.id });
    const id = row!.id;
    if (phase === 'ready') {
      const key = `companies/${me.companyId}/requests/${subject.requestId}/${subject.responseId ? `answers/${subject.responseId}/` : ''}export-${platform}-${id}.mp4`;
      await t.ctx.db.update(jobs).set({ outputKey: key }).where(eq(jobs.id, id));
      // The row's pointer of its version moves to it, as the worker does.
      const column = videoType === 'modified' ? { shortKey: key } : { shortOriginalKey: key };
      if (subject.responseId) await t.ctx.db.update(testimonialResponses).set(column).where(eq(testimonialResponses.id, subject.responseId));
      else await t.ctx.db.update(testimonialRequests).set(column).where(eq(testimonialRequests.id, subject.requestId));
    }
    return id;
  }

  const pathOf = (url: string) => new URL(url).pathname;
  const summary = (list: TStoredExport[]) => list.map((e) => [e.platform, e.videoType, e.id]);

  it('keeps a 9:16 export when a 16:9 one is made after it, and replaces an export only by one of the same format and version', async () => {
    const me = await signedInCompany(t);
    const { tm, response, detail } = await testimonialOf(me, true);
    const answer = { requestId: tm.id, responseId: response.id };

    const vertical = await exportJob(me, answer, 'shorts', 'modified');
    const landscape = await exportJob(me, answer, 'linkedin', 'modified');
    let d = await detail();
    let listed: TStoredExport[] = d.testimonial_responses[0].exports;
    expect(summary(listed)).toEqual([
      ['shorts', 'modified', vertical],
      ['linkedin', 'modified', landscape],
    ]);
    // Each entry is its job's own file, signed, with its poster beside it.
    expect(pathOf(listed[0]!.video_url)).toBe(`/files/companies/${me.companyId}/requests/${tm.id}/answers/${response.id}/export-shorts-${vertical}.mp4`);
    expect(new URL(listed[0]!.video_url).searchParams.get('sig')).toBeTruthy();
    expect(pathOf(listed[0]!.poster_url!)).toBe(`/files/companies/${me.companyId}/requests/${tm.id}/answers/${response.id}/export-shorts-${vertical}.jpg`);
    expect(listed[1]!.finished_at).toBe(new Date(Date.UTC(2026, 10, 27, 9, minute)).toISOString());
    // The version's field keeps the latest of that version only, as the spec has it.
    expect(pathOf(d.testimonial_responses[0].short_video_url)).toContain(`export-linkedin-${landscape}`);

    // A new 9:16 of the enhanced version replaces the older one; the original's 9:16 is another entry.
    const vertical2 = await exportJob(me, answer, 'shorts', 'modified');
    const verticalOriginal = await exportJob(me, answer, 'shorts', 'original');
    // Exports that did not finish are not stored exports.
    await exportJob(me, answer, 'linkedin', 'original', 'failed');
    await exportJob(me, answer, 'linkedin', 'modified', 'running');
    d = await detail();
    listed = d.testimonial_responses[0].exports;
    expect(summary(listed)).toEqual([
      ['shorts', 'modified', vertical2],
      ['shorts', 'original', verticalOriginal],
      ['linkedin', 'modified', landscape],
    ]);
    expect(d.exports).toEqual([]);

    // The merged video's exports are its own, beside the answer's.
    const merged = await exportJob(me, { requestId: tm.id }, 'linkedin', 'original');
    const mergedVertical = await exportJob(me, { requestId: tm.id }, 'shorts', 'modified');
    d = await detail();
    expect(summary(d.exports)).toEqual([
      ['shorts', 'modified', mergedVertical],
      ['linkedin', 'original', merged],
    ]);
    expect(pathOf(d.exports[1].video_url)).toBe(`/files/companies/${me.companyId}/requests/${tm.id}/export-linkedin-${merged}.mp4`);
    expect(d.testimonial_responses[0].exports).toHaveLength(3);

    // Another testimonial of the company lists none of them.
    const other = await testimonialOf(me, true);
    const od = await other.detail();
    expect(od.exports).toEqual([]);
    expect(od.testimonial_responses[0].exports).toEqual([]);
  });

  it('lists no export of an unpaid testimonial: it reveals no media', async () => {
    const me = await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const { tm, response, detail } = await testimonialOf(me, false);
    await exportJob(me, { requestId: tm.id, responseId: response.id }, 'shorts', 'original');
    await exportJob(me, { requestId: tm.id }, 'linkedin', 'original');
    const d = await detail();
    expect(d.paid).toBe(false);
    expect(d.exports).toEqual([]);
    expect(d.testimonial_responses[0].exports).toEqual([]);
    expect(d.testimonial_responses[0].short_video_url_original).toBeNull();
  });
});
