import { DEFAULT_VIDEO_STYLE } from '../../../contract/constants.js';
import type { videoStyleSettings } from '../../db/schema.js';

/**
 * A new company's style row: DEFAULT_VIDEO_STYLE, the first ready-made theme (issue 17). Written in full
 * rather than left to the column defaults, so that the contract's constant is what a company gets.
 */
export function defaultStyleRow(companyId: string): typeof videoStyleSettings.$inferInsert {
  const d = DEFAULT_VIDEO_STYLE;
  return {
    companyId,
    fontSizeQuestion: d.font_size_question,
    fontColorQuestion: d.font_color_question,
    fontStyleQuestion: d.font_style_question,
    fontBoldQuestion: d.font_bold_question,
    fontSizeSubtitle: d.font_size_subtitle,
    fontColorSubtitle: d.font_color_subtitle,
    fontStyleSubtitle: d.font_style_subtitle,
    fontBoldSubtitle: d.font_bold_subtitle,
    subtitleBorder: d.subtitle_border,
    backgroundColor: d.background_color,
    showLogoInVideos: d.show_logo_in_videos,
    logoPlate: d.logo_plate,
    lowerThird: d.lower_third,
    endCard: d.end_card,
    endCardText: d.end_card_text,
    endCardAddress: d.end_card_address,
    captionStyle: d.caption_style,
    prepareDrafts: d.prepare_drafts,
  };
}
