import { describe, expect, it } from 'vitest';
import type { TPublication } from '../../../../contract/api/publications.schema.js';
import { testJob } from '../jobs/job-fixtures';
import { publicationOf, renderJobOf } from './publishing';

const T = '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f';
const R = '7b0c1c3e-4a57-4c1e-9d8e-2f1a6b7c8d90';
const signed = (key: string, sig: string) => `http://localhost:3000/files/${key}?exp=4102444800&sig=${sig}`;

const intro = testJob('11111111-1111-4111-8111-111111111111', 'ready', { testimonialId: T, responseId: R, kind: 'intro', outputUrl: signed('a/intro-1.mp4', 'one') });
const newer = testJob('22222222-2222-4222-8222-222222222222', 'failed', { testimonialId: T, responseId: R, kind: 'subtitles' });
const transcode = testJob('33333333-3333-4333-8333-333333333333', 'ready', { testimonialId: T, responseId: R, kind: 'transcode', outputUrl: signed('a/answer.mp4', 'x') });

const publication = (overrides: Partial<TPublication>): TPublication => ({
  id: '44444444-4444-4444-8444-444444444444',
  testimonialId: T,
  jobId: null,
  responseId: R,
  slug: 'AbCdEfGhIjKlMnOpQrStUv',
  url: '',
  embedUrl: '',
  embedHtml: '',
  createdAt: '2025-03-10T09:00:00.000Z',
  quote: null,
  transcript: [],
  views: 0,
  ...overrides,
});

describe('which render made a video, and whether it is published', () => {
  it('finds the ready render by the path of its signed address, whatever its signature', () => {
    expect(renderJobOf([newer, intro], signed('a/intro-1.mp4', 'other'))?.id).toBe(intro.id);
    expect(renderJobOf([newer, intro], '/files/a/intro-1.mp4?exp=1&sig=2')?.id).toBe(intro.id);
    // Not a render (the transcode of the upload), another file, nothing.
    expect(renderJobOf([transcode], signed('a/answer.mp4', 'x'))).toBeNull();
    expect(renderJobOf([intro], signed('a/intro-2.mp4', 'one'))).toBeNull();
    expect(renderJobOf([], signed('a/intro-1.mp4', 'one'))).toBeNull();
  });

  it('tells an answer as recorded from a render of that answer', () => {
    const ofRender = publication({ jobId: intro.id });
    const ofAnswer = publication({ id: '55555555-5555-4555-8555-555555555555' });
    expect(publicationOf([ofRender], [intro], { kind: 'response', responseId: R })).toBeNull();
    expect(publicationOf([ofRender, ofAnswer], [intro], { kind: 'response', responseId: R })?.id).toBe(ofAnswer.id);
    expect(publicationOf([ofRender, ofAnswer], [intro], { kind: 'render', url: signed('a/intro-1.mp4', 'z') })?.id).toBe(ofRender.id);
    expect(publicationOf([ofAnswer], [intro], { kind: 'render', url: signed('a/intro-1.mp4', 'z') })).toBeNull();
  });
});
