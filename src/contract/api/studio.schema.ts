/**
 * Video studio: intros, merges, regenerations and social exports (spec: company dashboard §3 crop
 * area, §4 detail action matrix and export dialog, §5 crop validation, §7; issue 7).
 *
 * Every start call answers at once; the work runs in a job whose state (ZRenderState) is stored with
 * the testimonial or the response and read back through GET /api/testimonials/request/{id}.
 */
import { z } from 'zod';
import { ZJobId, ZLanguage } from './common.js';

/* ------------------------------------------------------------------ render state */

export const RENDER_PHASES = ['queued', 'running', 'ready', 'failed'] as const;
export const ZRenderPhase = z.enum(RENDER_PHASES);
export type TRenderPhase = z.infer<typeof ZRenderPhase>;

/** Which output a render job produces. */
export const RENDER_OUTPUTS = [
  'intro',
  'subtitles',
  'merge',
  'merged_subtitles',
  'regenerate',
  'regenerate_merged',
  'export',
  // Issue 31: the testimonial's draft (its own field of the detail, `draft`).
  'draft',
] as const;
export const ZRenderOutput = z.enum(RENDER_OUTPUTS);
export type TRenderOutput = z.infer<typeof ZRenderOutput>;

/**
 * State of the current (or last) render of a testimonial or response: its job's phase and kind, by the
 * same names as GET /api/jobs/{id} (one name end to end, issue 28).
 */
export const ZRenderState = z.object({
  output: ZRenderOutput.optional(),
  /** The render's job (GET /api/jobs/{jobId}), followed by the web until it is final. */
  jobId: ZJobId.optional(),
  phase: ZRenderPhase,
  /** Percent, 0 to 100. */
  progress: z.number().min(0).max(100),
  error: z.string().nullable(),
});
export type TRenderState = z.infer<typeof ZRenderState>;

/* ------------------------------------------------------------------ start calls */

/**
 * `{ language }` of merge, generate-modified/intro, regenerate-merged and regenerate: the interface
 * language (en | fr), used for the 'your video is ready' e-mail and any text the render adds.
 */
export const ZStudioLanguageBody = z.object({ language: ZLanguage });
export type TStudioLanguageBody = z.infer<typeof ZStudioLanguageBody>;

/** Answer of every render start call: the job (spec: regenerate → jobId) and its initial state. */
export const ZRenderJobResponse = z.object({
  jobId: ZJobId,
  state: ZRenderState,
});
export type TRenderJobResponse = z.infer<typeof ZRenderJobResponse>;

// POST /api/testimonials/response/{id}/generate-modified/intro   body ZStudioLanguageBody → ZRenderJobResponse
// POST /api/testimonials/{id}/merge                               body ZStudioLanguageBody → ZRenderJobResponse
// POST /api/testimonials/{id}/regenerate-merged                   body ZStudioLanguageBody → ZRenderJobResponse
// POST /api/testimonials/response/{id}/regenerate                 body ZStudioLanguageBody → ZRenderJobResponse
/* ------------------------------------------------------------------ crop area */

/** Tolerance on x + width ≤ 1 and y + height ≤ 1, for fractions computed from pixels. */
export const CROP_EPSILON = 1e-6;

const fraction = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .min(0, `${label} must be between 0 and 1`)
    .max(1, `${label} must be between 0 and 1`);

const size = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .gt(0, `${label} must be greater than 0 and at most 1`)
    .max(1, `${label} must be greater than 0 and at most 1`);

/**
 * Crop area as fractions of the frame (§5): x, y in [0, 1]; width, height in (0, 1];
 * x + width ≤ 1 and y + height ≤ 1 (within CROP_EPSILON). NaN and infinities are refused.
 * Pixel values are derived on each side from the fractions and the video's dimensions.
 */
export const ZCropArea = z
  .object({
    x: fraction('X'),
    y: fraction('Y'),
    width: size('Width'),
    height: size('Height'),
  })
  .superRefine((area, ctx) => {
    if (area.x + area.width > 1 + CROP_EPSILON) {
      ctx.addIssue({
        code: 'custom',
        path: ['width'],
        message: 'The crop area must fit inside the frame (x + width must not exceed 1)',
      });
    }
    if (area.y + area.height > 1 + CROP_EPSILON) {
      ctx.addIssue({
        code: 'custom',
        path: ['height'],
        message: 'The crop area must fit inside the frame (y + height must not exceed 1)',
      });
    }
  });
export type TCropArea = z.infer<typeof ZCropArea>;

/* ------------------------------------------------------------------ export-v2 */

export const EXPORT_PLATFORMS = ['shorts', 'linkedin', 'square', 'portrait'] as const;
export const ZExportPlatform = z.enum(EXPORT_PLATFORMS, {
  error: (issue) => `Unsupported platform: ${String(issue.input)}`,
});
export type TExportPlatform = z.infer<typeof ZExportPlatform>;

/**
 * Label, aspect ratio and output size of each export platform (§9, issue 7; 1:1 and 4:5 feed posts,
 * issue 31).
 */
export const EXPORT_PLATFORM_SPECS = {
  shorts: { label: 'Shorts / Stories', aspect: '9:16', ratio: 9 / 16, width: 1080, height: 1920 },
  linkedin: { label: 'LinkedIn', aspect: '16:9', ratio: 16 / 9, width: 1920, height: 1080 },
  square: { label: 'Square post', aspect: '1:1', ratio: 1, width: 1080, height: 1080 },
  portrait: { label: 'Portrait post', aspect: '4:5', ratio: 4 / 5, width: 1080, height: 1350 },
} as const satisfies Record<
  TExportPlatform,
  { label: string; aspect: string; ratio: number; width: number; height: number }
>;

export const EXPORT_VIDEO_TYPES = ['original', 'modified'] as const;
export const ZExportVideoType = z.enum(EXPORT_VIDEO_TYPES, {
  error: 'Video type must be original or modified',
});
export type TExportVideoType = z.infer<typeof ZExportVideoType>;

/** A further format of an export rendered in the same run: its platform and its own crop (the frame's ratio). */
export const ZExportFormat = z.object({ platform: ZExportPlatform, cropArea: ZCropArea });
export type TExportFormat = z.infer<typeof ZExportFormat>;

/**
 * Body of POST /api/testimonials/response/{id}/export-v2 and POST /api/testimonials/{id}/export-v2.
 * `platforms` (issue 31, optional) asks for further formats in the same run, each with its own crop: one
 * decode of each answer feeds every format. Each format appears once, `platform` included.
 */
export const ZExportV2Body = z
  .object({
    platform: ZExportPlatform,
    videoType: ZExportVideoType,
    cropArea: ZCropArea,
    language: ZLanguage,
    platforms: z.array(ZExportFormat, { error: 'Platforms must be a list of formats' }).max(EXPORT_PLATFORMS.length - 1, 'Each format can be asked for once').optional(),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>([body.platform]);
    for (const f of body.platforms ?? []) {
      if (seen.has(f.platform)) {
        ctx.addIssue({ code: 'custom', path: ['platforms'], message: 'Each format can be asked for once' });
        return;
      }
      seen.add(f.platform);
    }
  });
export type TExportV2Body = z.infer<typeof ZExportV2Body>;

/** 'done' is the spec's word for a finished export; the others follow the render phases. */
export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const ZExportStatus = z.enum(EXPORT_STATUSES);
export type TExportStatus = z.infer<typeof ZExportStatus>;

/**
 * `{ status, exportedUrl }`: exportedUrl is set when status is 'done', null before. Until then the
 * client follows the job through the render_state of the testimonial or response; the finished URL is
 * also stored as short_video_url (videoType modified) or short_video_url_original (videoType original),
 * and listed in the detail's `exports` beside the exports of other formats (decision 161).
 */
export const ZExportV2Response = z.object({
  status: ZExportStatus,
  exportedUrl: z.string().min(1).nullable(),
  jobId: ZJobId.optional(),
  state: ZRenderState.optional(),
});
export type TExportV2Response = z.infer<typeof ZExportV2Response>;

/* ------------------------------------------------------------------ smart crop */

/**
 * GET /api/testimonials/response/{id}/crop-focus (issue 31, decision 200): where the crop editor should
 * centre its frame at first, as fractions of the answer's picture (the centre of motion of its first
 * seconds); null when the picture barely moves. The person can still move the frame.
 */
export const ZCropFocusResponse = z.object({
  focus: z.object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) }).nullable(),
});
export type TCropFocusResponse = z.infer<typeof ZCropFocusResponse>;
