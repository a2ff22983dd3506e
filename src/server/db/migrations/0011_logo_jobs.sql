ALTER TABLE "jobs" DROP CONSTRAINT "jobs_kind_ck";--> statement-breakpoint
ALTER TABLE "jobs" ALTER COLUMN "request_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_subject_ck" CHECK ("jobs"."kind" = 'logo' or "jobs"."request_id" is not null);--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_kind_ck" CHECK ("jobs"."kind" in ('transcode', 'intro', 'subtitles', 'merge', 'merged_subtitles', 'export', 'transcription', 'merged_transcription', 'logo'));