-- Issue 29, the customer stays in control: the receipt page token, consent withdrawal beside the consent, answers
-- whose removal the customer asked, approvals of the final cut, the consent record (consent_events), and why a
-- publication was taken down. Every new column is nullable or has a default: existing rows keep their meaning.
CREATE TABLE "approvals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"job_id" uuid,
	"response_id" uuid,
	"token_hash" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"comment" text,
	"last_sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reminder_count" integer DEFAULT 0 NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approvals_subject_ck" CHECK ("approvals"."job_id" is not null or "approvals"."response_id" is not null),
	CONSTRAINT "approvals_state_ck" CHECK ("approvals"."state" in ('pending', 'approved', 'changes_requested', 'cancelled')),
	CONSTRAINT "approvals_comment_ck" CHECK ("approvals"."comment" is null or char_length("approvals"."comment") <= 2000)
);
--> statement-breakpoint
CREATE TABLE "consent_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"response_id" uuid,
	"approval_id" uuid,
	"ip" text,
	"user_agent" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consent_events_kind_ck" CHECK ("consent_events"."kind" in ('withdrawn', 'removal_requested', 'approval_requested', 'approval_reminded', 'approved', 'changes_requested', 'media_deleted'))
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "approval_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "withdrawn_ip" text;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "withdrawn_user_agent" text;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "unpublished_reason" text;--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD COLUMN "customer_page_token_hash" text;--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD COLUMN "consent_withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD COLUMN "approval_required" boolean;--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD COLUMN "media_deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "testimonial_responses" ADD COLUMN "removal_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_request_id_testimonial_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."testimonial_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_response_id_testimonial_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."testimonial_responses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_events" ADD CONSTRAINT "consent_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_events" ADD CONSTRAINT "consent_events_request_id_testimonial_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."testimonial_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_events" ADD CONSTRAINT "consent_events_response_id_testimonial_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."testimonial_responses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_events" ADD CONSTRAINT "consent_events_approval_id_approvals_id_fk" FOREIGN KEY ("approval_id") REFERENCES "public"."approvals"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approvals_token_uq" ON "approvals" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "approvals_request_idx" ON "approvals" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE INDEX "consent_events_request_idx" ON "consent_events" USING btree ("request_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "testimonial_requests_customer_page_uq" ON "testimonial_requests" USING btree ("customer_page_token_hash");--> statement-breakpoint
CREATE INDEX "testimonial_requests_withdrawn_idx" ON "testimonial_requests" USING btree ("consent_withdrawn_at") WHERE "testimonial_requests"."consent_withdrawn_at" is not null and "testimonial_requests"."media_deleted_at" is null;