CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"request_id" uuid NOT NULL,
	"response_id" uuid,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"phase" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"error_reason" text,
	"error_params" jsonb,
	"error_detail" text,
	"output_key" text,
	"result" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_kind_ck" CHECK ("jobs"."kind" in ('transcode', 'intro', 'subtitles', 'merge', 'merged_subtitles', 'export', 'transcription', 'merged_transcription')),
	CONSTRAINT "jobs_phase_ck" CHECK ("jobs"."phase" in ('queued', 'running', 'ready', 'failed', 'cancelled')),
	CONSTRAINT "jobs_progress_ck" CHECK ("jobs"."progress" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_request_id_testimonial_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."testimonial_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_response_id_testimonial_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."testimonial_responses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_company_idx" ON "jobs" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "jobs_request_idx" ON "jobs" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE INDEX "jobs_response_idx" ON "jobs" USING btree ("response_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_one_render_uq" ON "jobs" USING btree (coalesce("response_id", "request_id")) WHERE "jobs"."phase" in ('queued', 'running') and "jobs"."kind" in ('intro', 'subtitles', 'merge', 'merged_subtitles', 'export');--> statement-breakpoint
-- Carry the render states of answers and testimonials (jsonb maps keyed by output name) over as jobs.
-- A state's jobId becomes the job's id, so a render still in the queue finds its row; a render in flight
-- for more than 20 minutes was lost with its worker and is recorded as interrupted. A ready job keeps the
-- output its render wrote (its key holds the job id); the transcode's output is the answer's video.
INSERT INTO "jobs" ("id", "company_id", "kind", "request_id", "response_id", "params", "phase", "progress", "error_reason", "error_detail", "output_key", "created_at", "finished_at", "updated_at")
SELECT
	CASE WHEN s.value->>'jobId' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN (s.value->>'jobId')::uuid ELSE gen_random_uuid() END,
	r.company_id,
	CASE WHEN s.key = 'transcode' THEN 'transcode' WHEN s.key LIKE 'export%' THEN 'export' WHEN s.key = 'subtitles' THEN 'subtitles' ELSE 'intro' END,
	r.request_id,
	r.id,
	CASE WHEN s.key = 'export_modified' THEN '{"videoType":"modified"}'::jsonb WHEN s.key LIKE 'export%' THEN '{"videoType":"original"}'::jsonb ELSE '{}'::jsonb END,
	CASE
		WHEN s.value->>'phase' IN ('ready', 'failed') THEN s.value->>'phase'
		WHEN s.key <> 'transcode' AND (s.value->>'updatedAt')::timestamptz < now() - interval '20 minutes' THEN 'failed'
		WHEN s.value->>'phase' = 'rendering' THEN 'running'
		ELSE 'queued'
	END,
	CASE WHEN s.value->>'phase' = 'ready' THEN 100 ELSE least(100, greatest(0, coalesce((s.value->>'progress')::numeric, 0)))::integer END,
	CASE
		WHEN s.value->>'phase' = 'failed' THEN (CASE WHEN s.key = 'transcode' THEN 'transcode_failed' ELSE 'render_failed' END)
		WHEN s.value->>'phase' IN ('queued', 'rendering') AND s.key <> 'transcode' AND (s.value->>'updatedAt')::timestamptz < now() - interval '20 minutes' THEN 'interrupted'
	END,
	s.value->>'error',
	CASE WHEN s.value->>'phase' = 'ready' THEN
		CASE WHEN s.key = 'transcode' THEN r.video_key
		ELSE (SELECT k FROM unnest(ARRAY[r.modified_key, r.short_key, r.short_original_key]) AS k WHERE k LIKE '%' || (s.value->>'jobId') || '%' LIMIT 1) END
	END,
	coalesce((s.value->>'updatedAt')::timestamptz, r.updated_at),
	CASE WHEN s.value->>'phase' IN ('ready', 'failed') THEN coalesce((s.value->>'updatedAt')::timestamptz, r.updated_at) END,
	coalesce((s.value->>'updatedAt')::timestamptz, r.updated_at)
FROM "testimonial_responses" r, jsonb_each(r.render_state) s
WHERE jsonb_typeof(s.value) = 'object';
--> statement-breakpoint
INSERT INTO "jobs" ("id", "company_id", "kind", "request_id", "response_id", "params", "phase", "progress", "error_reason", "error_detail", "output_key", "created_at", "finished_at", "updated_at")
SELECT
	CASE WHEN s.value->>'jobId' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN (s.value->>'jobId')::uuid ELSE gen_random_uuid() END,
	t.company_id,
	CASE WHEN s.key LIKE 'export%' THEN 'export' WHEN s.key = 'merge_subtitles' THEN 'merged_subtitles' ELSE 'merge' END,
	t.id,
	NULL,
	CASE WHEN s.key = 'export_modified' THEN '{"videoType":"modified"}'::jsonb WHEN s.key LIKE 'export%' THEN '{"videoType":"original"}'::jsonb ELSE '{}'::jsonb END,
	CASE
		WHEN s.value->>'phase' IN ('ready', 'failed') THEN s.value->>'phase'
		WHEN (s.value->>'updatedAt')::timestamptz < now() - interval '20 minutes' THEN 'failed'
		WHEN s.value->>'phase' = 'rendering' THEN 'running'
		ELSE 'queued'
	END,
	CASE WHEN s.value->>'phase' = 'ready' THEN 100 ELSE least(100, greatest(0, coalesce((s.value->>'progress')::numeric, 0)))::integer END,
	CASE
		WHEN s.value->>'phase' = 'failed' THEN 'render_failed'
		WHEN s.value->>'phase' IN ('queued', 'rendering') AND (s.value->>'updatedAt')::timestamptz < now() - interval '20 minutes' THEN 'interrupted'
	END,
	s.value->>'error',
	CASE WHEN s.value->>'phase' = 'ready' THEN
		(SELECT k FROM unnest(ARRAY[t.merged_key, t.merged_subtitles_key, t.short_key, t.short_original_key]) AS k WHERE k LIKE '%' || (s.value->>'jobId') || '%' LIMIT 1)
	END,
	coalesce((s.value->>'updatedAt')::timestamptz, t.updated_at),
	CASE WHEN s.value->>'phase' IN ('ready', 'failed') THEN coalesce((s.value->>'updatedAt')::timestamptz, t.updated_at) END,
	coalesce((s.value->>'updatedAt')::timestamptz, t.updated_at)
FROM "testimonial_requests" t, jsonb_each(t.render_state) s
WHERE jsonb_typeof(s.value) = 'object';
--> statement-breakpoint
-- Transcription jobs keep their ids (clients may be following them) and their results.
INSERT INTO "jobs" ("id", "company_id", "kind", "request_id", "response_id", "phase", "progress", "error_reason", "error_detail", "result", "created_at", "finished_at", "updated_at")
SELECT
	j.id,
	j.company_id,
	CASE WHEN j.response_id IS NULL THEN 'merged_transcription' ELSE 'transcription' END,
	j.request_id,
	j.response_id,
	CASE j.status WHEN 'done' THEN 'ready' WHEN 'error' THEN 'failed' WHEN 'processing' THEN 'running' ELSE 'queued' END,
	CASE WHEN j.status = 'done' THEN 100 ELSE 0 END,
	CASE WHEN j.status = 'error' THEN 'transcription_failed' END,
	j.error,
	j.result,
	j.created_at,
	CASE WHEN j.status IN ('done', 'error') THEN j.updated_at END,
	j.updated_at
FROM "transcription_jobs" j;
--> statement-breakpoint
ALTER TABLE "testimonial_requests" DROP COLUMN "render_state";--> statement-breakpoint
ALTER TABLE "testimonial_responses" DROP COLUMN "render_state";