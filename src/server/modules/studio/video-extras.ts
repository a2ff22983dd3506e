import { and, eq } from 'drizzle-orm';
import { DEFAULT_VIDEO_STYLE, type TCaptionStyle } from '../../../contract/constants.js';
import type { AppContext } from '../../context.js';
import { testimonialRequests, videoStyleSettings } from '../../db/schema.js';

/**
 * What issue 31 adds to a composed video (decision 202), read for the company of the job: the
 * lower-third's name and position (the submitter's own when a collection link was used, else the
 * request's customer), and the end card's texts when the company has it on and says something on it.
 */
export interface VideoExtras {
  lowerThird: { name: string; title: string | null } | null;
  endCard: { text: string; address: string } | null;
  /** The subtitles' size of the settings: the lower-third sits above two lines of them. */
  subtitleSize: number;
  subtitleBorder: boolean;
  /** Word-by-word captions sit higher: the lower-third then keeps above them (wordCaptionClearance). */
  captionStyle: TCaptionStyle;
}

export async function videoExtras(ctx: AppContext, companyId: string, requestId: string): Promise<VideoExtras> {
  const [row] = await ctx.db.select().from(videoStyleSettings).where(eq(videoStyleSettings.companyId, companyId));
  const [request] = await ctx.db
    .select({ customerName: testimonialRequests.customerName, customerPosition: testimonialRequests.customerPosition, submitterName: testimonialRequests.submitterName, submitterTitle: testimonialRequests.submitterTitle })
    .from(testimonialRequests)
    .where(and(eq(testimonialRequests.id, requestId), eq(testimonialRequests.companyId, companyId)));
  const d = DEFAULT_VIDEO_STYLE;
  const name = request ? request.submitterName?.trim() || request.customerName.trim() : '';
  const title = request ? request.submitterTitle?.trim() || request.customerPosition?.trim() || null : null;
  const text = (row?.endCardText ?? d.end_card_text).trim();
  const address = (row?.endCardAddress ?? d.end_card_address).trim();
  return {
    lowerThird: (row?.lowerThird ?? d.lower_third) && name ? { name, title } : null,
    endCard: (row?.endCard ?? d.end_card) && (text || address) ? { text, address } : null,
    subtitleSize: row?.fontSizeSubtitle ?? d.font_size_subtitle,
    subtitleBorder: row?.subtitleBorder ?? d.subtitle_border,
    captionStyle: row?.captionStyle === 'word' ? 'word' : 'line',
  };
}
