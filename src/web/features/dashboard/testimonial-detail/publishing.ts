import type { TJob } from '../../../../contract/api/jobs.schema.js';
import { RENDER_JOB_KINDS } from '../../../../contract/api/jobs.schema.js';
import type { TPublication } from '../../../../contract/api/publications.schema.js';

/**
 * Which video a Publish button names (issue 19). An answer as recorded is named by its answer; any
 * other video the detail screen plays (an enhanced answer, the merged video with or without subtitles)
 * is the output of a ready render, named by its job: the job of the list (GET /api/jobs?testimonialId=)
 * whose output has the same address path as the video shown (both are signed addresses of the same
 * stored key; only their signature differs).
 */
export type TPublishTarget = { kind: 'response'; responseId: string } | { kind: 'render'; url: string };

/** What the publish dialog publishes, and how it names it. */
export interface PublishItem {
  target: TPublishTarget;
  /** e.g. 'Answer 1 · What did you like most?' */
  title: string;
  /** The version, e.g. 'Enhanced' (none for an export). */
  version?: string;
  /** What the person should know before publishing it (a trimmed answer's recording is published whole, decision 201). */
  note?: string;
}

const pathOf = (address: string): string | null => {
  try {
    return new URL(address, 'http://x.invalid').pathname;
  } catch {
    return null;
  }
};

const isRender = (kind: TJob['kind']) => (RENDER_JOB_KINDS as readonly string[]).includes(kind);

/** The ready render whose output is the video at `url`, if the list knows it. */
export function renderJobOf(jobs: readonly TJob[], url: string): TJob | null {
  const wanted = pathOf(url);
  if (!wanted) return null;
  return jobs.find((job) => isRender(job.kind) && job.phase === 'ready' && job.outputUrl && pathOf(job.outputUrl) === wanted) ?? null;
}

/** The live publication of a target, if any (a publication of a render carries its job and that job's answer). */
export function publicationOf(publications: readonly TPublication[], jobs: readonly TJob[], target: TPublishTarget): TPublication | null {
  if (target.kind === 'response') return publications.find((p) => p.jobId === null && p.responseId === target.responseId) ?? null;
  const job = renderJobOf(jobs, target.url);
  return job ? (publications.find((p) => p.jobId === job.id) ?? null) : null;
}
