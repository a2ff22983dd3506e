import { SAVE_LIMITS } from '../../contract/api/public.schema.js';

/**
 * The largest picture a customer's answer may have: 4096 px on a side and 3840×2160 (8.3 Mpx) in all,
 * which every phone and webcam setting fits (4K UHD, portrait or landscape). Anything larger costs a
 * transcode out of proportion with a 20-second answer. Both limits read the same whichever way the
 * phone was held, so the rotation a file carries changes nothing.
 */
export const ANSWER_FRAME_LIMITS = { maxSide: 4096, maxPixels: 3840 * 2160 } as const;

/**
 * Input options for every ffmpeg run that reads a customer's answer, the second line of defence
 * behind the checks at upload: read no more than the longest answer accepted (`-t`), and let the
 * decoder refuse a frame larger than accepted (`-max_pixels`: a stream can change its size after the
 * first frames that ffprobe looked at).
 */
export const ANSWER_INPUT_LIMITS: readonly string[] = [
  '-t',
  String(SAVE_LIMITS.maxDurationSeconds),
  '-max_pixels',
  String(ANSWER_FRAME_LIMITS.maxPixels),
];
