-- A designed default look for new companies (issue 17): the column defaults of video_style_settings
-- become DEFAULT_VIDEO_STYLE (src/contract/constants.ts), the 'ink' theme of src/contract/video-themes.ts:
-- Trebuchet MS bold on a near-black card, subtitles 34 px bold with the outline. Only the defaults
-- change: the rows of existing companies keep the style they have.
ALTER TABLE "video_style_settings" ALTER COLUMN "font_size_question" SET DEFAULT 40;--> statement-breakpoint
ALTER TABLE "video_style_settings" ALTER COLUMN "font_style_question" SET DEFAULT 'Trebuchet MS';--> statement-breakpoint
ALTER TABLE "video_style_settings" ALTER COLUMN "font_bold_question" SET DEFAULT true;--> statement-breakpoint
ALTER TABLE "video_style_settings" ALTER COLUMN "font_size_subtitle" SET DEFAULT 34;--> statement-breakpoint
ALTER TABLE "video_style_settings" ALTER COLUMN "font_style_subtitle" SET DEFAULT 'Trebuchet MS';--> statement-breakpoint
ALTER TABLE "video_style_settings" ALTER COLUMN "font_bold_subtitle" SET DEFAULT true;--> statement-breakpoint
ALTER TABLE "video_style_settings" ALTER COLUMN "background_color" SET DEFAULT '#15171f';
