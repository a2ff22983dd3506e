-- Issue 30, collect more and chase less: open collection links (/c/{slug}) with their questions, the request's
-- time zone and automatic-reminder count, the e-mail code of a link that asks for one, the addresses that
-- unsubscribed from a company, and the funnel's steps (request_events). New columns are nullable or defaulted.
CREATE TABLE "collection_link_questions" (
	"link_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"order_position" integer NOT NULL,
	CONSTRAINT "collection_link_questions_link_id_question_id_pk" PRIMARY KEY("link_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "collection_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"language" text DEFAULT 'english' NOT NULL,
	"gift" text,
	"background_color" text DEFAULT '#000000' NOT NULL,
	"expires_at" timestamp with time zone,
	"max_submissions" integer,
	"daily_cap" integer DEFAULT 50 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"email_code_required" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collection_links_language_ck" CHECK ("collection_links"."language" in ('english', 'french')),
	CONSTRAINT "collection_links_max_ck" CHECK ("collection_links"."max_submissions" is null or "collection_links"."max_submissions" > 0),
	CONSTRAINT "collection_links_daily_cap_ck" CHECK ("collection_links"."daily_cap" > 0)
);
--> statement-breakpoint
CREATE TABLE "email_unsubscribes" (
	"company_id" uuid NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_unsubscribes_company_id_email_pk" PRIMARY KEY("company_id","email")
);
--> statement-breakpoint
CREATE TABLE "request_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"request_id" uuid,
	"link_id" uuid,
	"kind" text NOT NULL,
	"language" text NOT NULL,
	"visitor_hash" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_events_kind_ck" CHECK ("request_events"."kind" in ('link_opened', 'sent', 'delivered', 'bounced', 'reminded', 'opened', 'device_ok', 'first_answer', 'submitted', 'unsubscribed')),
	CONSTRAINT "request_events_language_ck" CHECK ("request_events"."language" in ('english', 'french')),
	CONSTRAINT "request_events_subject_ck" CHECK ("request_events"."request_id" is not null or "request_events"."link_id" is not null)
);
--> statement-breakpoint
ALTER TABLE "testimonial_requests" DROP CONSTRAINT "testimonial_requests_delivery_ck";--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "reminder_days" jsonb DEFAULT '[3, 7]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "time_zone" text DEFAULT 'Europe/Paris' NOT NULL;--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD COLUMN "collection_link_id" uuid;--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD COLUMN "time_zone" text DEFAULT 'Europe/Paris' NOT NULL;--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD COLUMN "auto_reminder_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD COLUMN "email_code_hash" text;--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD COLUMN "email_code_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD COLUMN "email_code_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD COLUMN "email_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "collection_link_questions" ADD CONSTRAINT "collection_link_questions_link_id_collection_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."collection_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_link_questions" ADD CONSTRAINT "collection_link_questions_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_links" ADD CONSTRAINT "collection_links_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_unsubscribes" ADD CONSTRAINT "email_unsubscribes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_events" ADD CONSTRAINT "request_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_events" ADD CONSTRAINT "request_events_request_id_testimonial_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."testimonial_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_events" ADD CONSTRAINT "request_events_link_id_collection_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."collection_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collection_link_questions_question_idx" ON "collection_link_questions" USING btree ("question_id");--> statement-breakpoint
CREATE UNIQUE INDEX "collection_links_slug_uq" ON "collection_links" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "collection_links_company_idx" ON "collection_links" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "request_events_company_at_idx" ON "request_events" USING btree ("company_id","at");--> statement-breakpoint
CREATE INDEX "request_events_request_idx" ON "request_events" USING btree ("request_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "request_events_step_uq" ON "request_events" USING btree ("request_id","kind") WHERE "request_events"."kind" in ('opened', 'device_ok', 'first_answer', 'submitted');--> statement-breakpoint
CREATE UNIQUE INDEX "request_events_link_visitor_uq" ON "request_events" USING btree ("link_id","visitor_hash") WHERE "request_events"."kind" = 'link_opened';--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD CONSTRAINT "testimonial_requests_collection_link_id_collection_links_id_fk" FOREIGN KEY ("collection_link_id") REFERENCES "public"."collection_links"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "testimonial_requests_link_idx" ON "testimonial_requests" USING btree ("collection_link_id","created_at");--> statement-breakpoint
CREATE INDEX "testimonial_requests_pending_idx" ON "testimonial_requests" USING btree ("expires_at") WHERE "testimonial_requests"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_reminder_days_ck" CHECK (jsonb_typeof("companies"."reminder_days") = 'array' and jsonb_array_length("companies"."reminder_days") <= 3);--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD CONSTRAINT "testimonial_requests_collection_ck" CHECK ("testimonial_requests"."delivery" <> 'collection' or "testimonial_requests"."customer_email" is not null);--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD CONSTRAINT "testimonial_requests_delivery_ck" CHECK ("testimonial_requests"."delivery" in ('email', 'link', 'collection'));--> statement-breakpoint
-- Requests already pending when automatic reminders arrive: the reminders whose day has passed count as sent,
-- so nobody receives a burst of late reminders on the day this ships.
UPDATE "testimonial_requests" SET "auto_reminder_count" = CASE
  WHEN "created_at" < now() - interval '7 days' THEN 2
  WHEN "created_at" < now() - interval '3 days' THEN 1
  ELSE 0 END
WHERE "status" = 'pending';