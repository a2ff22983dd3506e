-- 'Ready' e-mails gathered per testimonial (issue 17). A render job records what its output is
-- (`ready_output`, e.g. 'intro_subtitles'), whether the company still has to be told
-- (`notify_pending`: the render was slow, or nobody was following it) and when it was told
-- (`notified_at`). `watched_at` is the last time the web app followed the job (GET /api/jobs/{id}),
-- written at most every few seconds. The testimonial keeps when its last 'ready' e-mail was sent: at
-- most one per testimonial per ten minutes.
ALTER TABLE "jobs" ADD COLUMN "watched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "ready_output" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "notify_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "notified_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "jobs_notify_pending_idx" ON "jobs" USING btree ("request_id") WHERE "jobs"."notify_pending";--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD COLUMN "ready_mail_sent_at" timestamp with time zone;
