import { describe, expect, it } from 'vitest';
import type { TRenderState } from '../../../../contract/api/studio.schema.js';
import type { TTestimonialRequest, TTestimonialResponse } from '../../../../contract/api/testimonials.schema.js';
import { ZTestimonialRequest } from '../../../../contract/api/testimonials.schema.js';
import {
  anyJobRunning,
  cropFrameUrl,
  downloadName,
  exportFileName,
  isPreparing,
  keepSignedAddresses,
  mediaSource,
  mediaStatus,
  mergedActions,
  responseActions,
  runningJob,
  shouldRefreshSource,
  withTimestamp,
} from './studio-state';

const signed = (key: string, exp = 2_000_000_000) => `http://127.0.0.1:3000/files/${key}?exp=${exp}&sig=abc`;

function response(overrides: Partial<TTestimonialResponse> = {}): TTestimonialResponse {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    question: { id: '22222222-2222-4222-8222-222222222222', text: 'What did you like?' },
    video_url: signed('a/answer.mp4'),
    modified_video_url: null,
    intro_generated: false,
    has_subtitles: false,
    short_video_url: null,
    short_video_url_original: null,
    orderPosition: 1,
    poster_url: signed('a/poster.jpg'),
    render_state: null,
    ...overrides,
  };
}

function testimonial(overrides: Partial<TTestimonialRequest> = {}): TTestimonialRequest {
  return ZTestimonialRequest.parse({
    id: '33333333-3333-4333-8333-333333333333',
    customer_name: 'Claire Dubois',
    customer_email: 'claire@client.test',
    delivery: 'email',
    link: 'http://localhost/testimonial/submit/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcd',
    customer_position: 'Head of Marketing',
    status: 'completed',
    created_at: '2025-01-01T10:00:00.000Z',
    updated_at: '2025-01-02T10:00:00.000Z',
    expires_at: '2025-01-15T10:00:00.000Z',
    last_reminder_sent: null,
    paid: true,
    language: 'english',
    gift: null,
    video_url: null,
    video_url_subtitles: null,
    has_subtitles: false,
    short_video_url: null,
    short_video_url_original: null,
    testimonial_responses: [response()],
    render_state: null,
    ...overrides,
  });
}

const running: TRenderState = { output: 'intro', phase: 'running', progress: 40, error: null };
const queued: TRenderState = { output: 'merge', phase: 'queued', progress: 0, error: null };
const ready: TRenderState = { output: 'intro', phase: 'ready', progress: 100, error: null };
const failed: TRenderState = { output: 'intro', phase: 'failed', progress: 0, error: 'ffmpeg exited with 1' };

describe('the answer actions of the detail matrix (spec §4)', () => {
  it('offers intro or subtitles with no enhanced version and no job running, and the original download', () => {
    expect(responseActions(response())).toEqual({
      intro: true,
      subtitles: true,
      view: false,
      download: false,
      export: false,
      regenerate: false,
      downloadOriginal: true,
    });
  });

  it('offers neither while a job runs on the answer', () => {
    for (const state of [running, { ...queued, output: 'intro' as const }]) {
      const actions = responseActions(response({ render_state: state }));
      expect(actions.intro).toBe(false);
      expect(actions.subtitles).toBe(false);
      expect(actions.downloadOriginal).toBe(true);
    }
  });

  it('offers them again after a failed or finished job', () => {
    expect(responseActions(response({ render_state: failed })).intro).toBe(true);
    expect(responseActions(response({ render_state: ready })).subtitles).toBe(true);
  });

  it('offers view, download, export and regenerate with an enhanced version; subtitles when only the intro exists', () => {
    const actions = responseActions(response({ modified_video_url: signed('a/intro-1.mp4'), intro_generated: true }));
    expect(actions).toEqual({
      intro: false,
      subtitles: true,
      view: true,
      download: true,
      export: true,
      regenerate: true,
      downloadOriginal: true,
    });
  });

  it('offers the intro when only subtitles exist, and neither when both do', () => {
    const onlySubtitles = responseActions(response({ modified_video_url: signed('a/subtitles-1.mp4'), has_subtitles: true }));
    expect(onlySubtitles.intro).toBe(true);
    expect(onlySubtitles.subtitles).toBe(false);
    const both = responseActions(response({ modified_video_url: signed('a/subtitles-2.mp4'), has_subtitles: true, intro_generated: true }));
    expect(both.intro).toBe(false);
    expect(both.subtitles).toBe(false);
    expect(both.regenerate).toBe(true);
  });

  it('offers nothing to generate and no download for an answer without a video', () => {
    const actions = responseActions(response({ video_url: null, poster_url: null }));
    expect(actions.intro || actions.subtitles || actions.downloadOriginal).toBe(false);
  });

  it('knows an answer still being prepared, or whose preparation failed, from its transcode job', () => {
    const media = (phase: 'queued' | 'running' | 'ready' | 'failed') => ({ jobId: '44444444-4444-4444-8444-444444444444', phase, progress: 0, error: null });
    expect(mediaStatus(response({ video_url: null, poster_url: null, media: media('queued') }))).toBe('preparing');
    expect(mediaStatus(response({ video_url: null, poster_url: null, media: media('running') }))).toBe('preparing');
    expect(mediaStatus(response({ video_url: null, poster_url: null, media: media('failed') }))).toBe('failed');
    expect(mediaStatus(response({ media: media('ready') }))).toBe('ready');
    // Nothing to generate or download before it is ready.
    const actions = responseActions(response({ video_url: null, poster_url: null, media: media('running') }));
    expect(actions.intro || actions.subtitles || actions.downloadOriginal).toBe(false);
  });

  it('knows an answer still being transcoded from an older server (a video, no poster yet)', () => {
    expect(isPreparing(response({ poster_url: null }))).toBe(true);
    expect(isPreparing(response())).toBe(false);
    expect(isPreparing(response({ video_url: null, poster_url: null }))).toBe(false);
    expect(responseActions(response({ poster_url: null })).intro).toBe(false);
  });
});

describe('the merged card (spec §4)', () => {
  it('offers Merge when answers exist and no merged video yet, and no card', () => {
    expect(mergedActions(testimonial())).toMatchObject({ show: false, merge: true, subtitles: false });
    expect(mergedActions(testimonial({ testimonial_responses: [] })).merge).toBe(false);
  });

  it('shows the card with a merged video, offering subtitles only while it has none', () => {
    expect(mergedActions(testimonial({ video_url: signed('merged-1.mp4') }))).toEqual({
      show: true,
      merge: false,
      subtitles: true,
      download: true,
      export: true,
      regenerate: true,
    });
    const withSubtitles = mergedActions(
      testimonial({ video_url: signed('merged-1.mp4'), video_url_subtitles: signed('merged-subtitles-1.mp4'), has_subtitles: true }),
    );
    expect(withSubtitles).toMatchObject({ show: true, subtitles: false, download: true, export: true });
  });

  it('shows the card for a subtitled merged video alone', () => {
    expect(mergedActions(testimonial({ video_url_subtitles: signed('merged-subtitles-1.mp4'), has_subtitles: true }))).toMatchObject({
      show: true,
      subtitles: false,
      download: true,
    });
  });
});

describe('every action is disabled while any job runs (spec §4)', () => {
  it('sees a job on the testimonial or on any answer', () => {
    expect(anyJobRunning(testimonial())).toBe(false);
    expect(anyJobRunning(testimonial({ render_state: queued }))).toBe(true);
    const second = response({ id: '44444444-4444-4444-8444-444444444444', orderPosition: 2, render_state: running });
    const withRunningAnswer = testimonial({ testimonial_responses: [response(), second] });
    expect(anyJobRunning(withRunningAnswer)).toBe(true);
    expect(runningJob(withRunningAnswer)).toEqual(running);
    expect(anyJobRunning(testimonial({ render_state: failed, testimonial_responses: [response({ render_state: ready })] }))).toBe(false);
  });
});

describe('video sources', () => {
  it('carry a timestamp parameter after the signature', () => {
    expect(withTimestamp('/files/a.mp4?exp=1&sig=x', 42)).toBe('/files/a.mp4?exp=1&sig=x&t=42');
    expect(withTimestamp('/files/a.mp4', 42)).toBe('/files/a.mp4?t=42');
    expect(withTimestamp('/files/a.mp4?exp=1#t=2', 42)).toBe('/files/a.mp4?exp=1&t=42#t=2');
  });

  it('are taken again for another object or an address about to expire, not for a fresh signature of the same one', () => {
    const now = 1_900_000_000_000;
    const soon = Math.floor(now / 1000) + 60;
    const later = Math.floor(now / 1000) + 7200;
    expect(shouldRefreshSource(null, signed('a.mp4'), now)).toBe(true);
    expect(shouldRefreshSource(signed('a.mp4', later), signed('a.mp4', later + 2), now)).toBe(false);
    expect(shouldRefreshSource(signed('a.mp4', later), signed('b.mp4', later), now)).toBe(true);
    expect(shouldRefreshSource(signed('a.mp4', soon), signed('a.mp4', later), now)).toBe(true);
  });

  it('carry a timestamp derived from the address alone (its expiry), so the same address keeps its source', () => {
    expect(mediaSource(signed('a.mp4', 2_000_000_123))).toBe(`${signed('a.mp4', 2_000_000_123)}&t=2000000123`);
    const unsigned = '/files/a.mp4';
    expect(mediaSource(unsigned)).toBe(mediaSource(unsigned));
    expect(mediaSource(unsigned)).toMatch(/^\/files\/a\.mp4\?t=\d+$/);
  });

  it('are kept from the previous read of the detail while they show the same object and stay valid', () => {
    const now = 1_900_000_000_000;
    const later = Math.floor(now / 1000) + 7200;
    const soon = Math.floor(now / 1000) + 60;
    const before = testimonial({ video_url: signed('merged.mp4', later), testimonial_responses: [response({ video_url: signed('a/answer.mp4', soon), modified_video_url: signed('a/intro.mp4', later) })] });
    const after = testimonial({
      video_url: signed('merged.mp4', later + 30),
      testimonial_responses: [response({ video_url: signed('a/answer.mp4', later + 30), modified_video_url: signed('a/intro-2.mp4', later + 30), intro_generated: true })],
    });
    const kept = keepSignedAddresses(before, after, now) as TTestimonialRequest;
    // Same object, still valid: the old address. About to expire, or another object: the new one.
    expect(kept.video_url).toBe(before.video_url);
    expect(kept.testimonial_responses[0]!.video_url).toBe(after.testimonial_responses[0]!.video_url);
    expect(kept.testimonial_responses[0]!.modified_video_url).toBe(after.testimonial_responses[0]!.modified_video_url);
    expect(kept.testimonial_responses[0]!.intro_generated).toBe(true);
    // Another answer in the same place is never given the first one's addresses.
    const other = testimonial({ testimonial_responses: [response({ id: '55555555-5555-4555-8555-555555555555', video_url: signed('a/answer.mp4', later + 30) })] });
    expect((keepSignedAddresses(before, other, now) as TTestimonialRequest).testimonial_responses[0]!.video_url).toBe(signed('a/answer.mp4', later + 30));
  });

  it("are kept for a stored export shown again, and never given to another export in its place", () => {
    const now = 1_900_000_000_000;
    const later = Math.floor(now / 1000) + 7200;
    const item = (id: string, key: string, exp: number) =>
      ({ id, platform: 'shorts', videoType: 'modified', video_url: signed(`${key}.mp4`, exp), poster_url: signed(`${key}.jpg`, exp), finished_at: '2026-11-27T09:00:00.000Z' }) as const;
    const A = '66666666-6666-4666-8666-666666666666';
    const B = '77777777-7777-4777-8777-777777777777';
    const before = testimonial({ exports: [item(A, 'export-shorts-a', later)] });
    const kept = keepSignedAddresses(before, testimonial({ exports: [item(A, 'export-shorts-a', later + 30)] }), now) as TTestimonialRequest;
    expect(kept.exports![0]!.video_url).toBe(signed('export-shorts-a.mp4', later));
    expect(kept.exports![0]!.poster_url).toBe(signed('export-shorts-a.jpg', later));
    const replaced = keepSignedAddresses(before, testimonial({ exports: [item(B, 'export-shorts-b', later + 30)] }), now) as TTestimonialRequest;
    expect(replaced.exports![0]!.video_url).toBe(signed('export-shorts-b.mp4', later + 30));
  });
});

describe('formats', () => {

  it("takes the export's crop frame from the answer as recorded, for the merged video from the first answer", () => {
    const enhanced = response({ modified_video_url: signed('a/intro-j.mp4'), intro_generated: true });
    expect(cropFrameUrl(testimonial(), enhanced)).toBe(signed('a/answer.mp4'));
    const second = response({ id: '44444444-4444-4444-8444-444444444444', orderPosition: 2, video_url: signed('b/answer.mp4') });
    const first = response({ orderPosition: 1, video_url: signed('a/answer.mp4') });
    const merged = testimonial({ video_url: signed('merged.mp4'), video_url_subtitles: signed('merged-subtitles.mp4'), testimonial_responses: [second, first] });
    expect(cropFrameUrl(merged, null)).toBe(signed('a/answer.mp4'));
    expect(cropFrameUrl(testimonial({ testimonial_responses: [] }), null)).toBeNull();
  });

  it('names downloads after the customer and the version', () => {
    expect(downloadName('Claire Dubois-Ébène', '1-original', signed('a/original.webm'))).toBe('claire-dubois-ebene-1-original.webm');
    expect(downloadName('   ', 'merged', signed('merged.mp4'))).toBe('testimonial-merged.mp4');
  });

  it('names a stored export after the customer, the question number and the format (decision 161)', () => {
    const item = { platform: 'shorts', videoType: 'modified', video_url: signed('a/export-shorts-j.mp4') } as const;
    expect(exportFileName('Grace Hopper', { question: 1 }, item)).toBe('grace-hopper-q1-9x16.mp4');
    expect(exportFileName('Grace Hopper', { question: 2 }, { ...item, platform: 'linkedin' })).toBe('grace-hopper-q2-16x9.mp4');
    expect(exportFileName('Zoë Nuñez-Ångström', { question: 3 }, { ...item, platform: 'linkedin', videoType: 'original' })).toBe('zoe-nunez-angstrom-q3-16x9-original.mp4');
    expect(exportFileName('Grace Hopper', 'merged', item)).toBe('grace-hopper-merged-9x16.mp4');
    expect(exportFileName('Grace Hopper', 'merged', { ...item, videoType: 'original' })).toBe('grace-hopper-merged-9x16-original.mp4');
    expect(exportFileName('山田 太郎', 'merged', { ...item, platform: 'linkedin' })).toBe('testimonial-merged-16x9.mp4');
  });
});

describe('attachment addresses', () => {
  it('ask our file route for an attachment with the suggested name, keeping the signature', async () => {
    const { attachmentUrl } = await import('./studio-controls');
    expect(attachmentUrl('/files/a/b.mp4?exp=1&sig=x', 'claire dubois-1.mp4')).toBe('/files/a/b.mp4?exp=1&sig=x&download=claire%20dubois-1.mp4');
    expect(attachmentUrl('/files/a/b.mp4', 'x.mp4')).toBe('/files/a/b.mp4?download=x.mp4');
  });
});
