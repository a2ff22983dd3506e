ALTER TABLE "testimonial_responses" ADD COLUMN "trim_start" real;--> statement-breakpoint
ALTER TABLE "testimonial_responses" ADD COLUMN "trim_end" real;--> statement-breakpoint
ALTER TABLE "video_style_settings" ADD COLUMN "lower_third" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "video_style_settings" ADD COLUMN "end_card" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "video_style_settings" ADD COLUMN "end_card_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "video_style_settings" ADD COLUMN "end_card_address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "video_style_settings" ADD COLUMN "caption_style" text DEFAULT 'line' NOT NULL;--> statement-breakpoint
ALTER TABLE "testimonial_responses" ADD CONSTRAINT "testimonial_responses_trim_ck" CHECK (("testimonial_responses"."trim_start" is null or "testimonial_responses"."trim_start" >= 0) and ("testimonial_responses"."trim_end" is null or "testimonial_responses"."trim_end" > coalesce("testimonial_responses"."trim_start", 0)));--> statement-breakpoint
ALTER TABLE "video_style_settings" ADD CONSTRAINT "video_style_settings_caption_style_ck" CHECK ("video_style_settings"."caption_style" in ('line', 'word'));