ALTER TABLE "transcription_jobs" ADD COLUMN "response_id" uuid;--> statement-breakpoint
ALTER TABLE "transcription_jobs" ADD CONSTRAINT "transcription_jobs_response_id_testimonial_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."testimonial_responses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transcription_jobs_response_idx" ON "transcription_jobs" USING btree ("response_id");
