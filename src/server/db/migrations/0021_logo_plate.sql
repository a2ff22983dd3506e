-- Logos that read (issue 27, decision 172): the logo job measures the normalised logo's opaque pixels
-- (mean relative luminance, 0 to 1, and the width-to-height ratio of their bounding box); the
-- company chooses whether the logo sits on a light plate ('auto': when it is hard to see on the background).
ALTER TABLE "companies" ADD COLUMN "logo_luminance" real;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "logo_aspect" real;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_logo_luminance_ck" CHECK ("companies"."logo_luminance" is null or ("companies"."logo_luminance" >= 0 and "companies"."logo_luminance" <= 1));--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_logo_aspect_ck" CHECK ("companies"."logo_aspect" is null or "companies"."logo_aspect" > 0);--> statement-breakpoint
ALTER TABLE "video_style_settings" ADD COLUMN "logo_plate" text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE "video_style_settings" ADD CONSTRAINT "video_style_settings_logo_plate_ck" CHECK ("video_style_settings"."logo_plate" in ('auto', 'on', 'off'));
