ALTER TABLE "jobs" DROP CONSTRAINT "jobs_kind_ck";--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD COLUMN "draft_key" text;--> statement-breakpoint
ALTER TABLE "video_style_settings" ADD COLUMN "prepare_drafts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_one_draft_uq" ON "jobs" USING btree ("request_id") WHERE "jobs"."kind" = 'draft' and "jobs"."phase" in ('queued', 'running', 'ready');--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_kind_ck" CHECK ("jobs"."kind" in ('transcode', 'intro', 'subtitles', 'merge', 'merged_subtitles', 'export', 'transcription', 'merged_transcription', 'logo', 'draft'));