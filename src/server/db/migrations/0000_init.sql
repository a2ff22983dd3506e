CREATE TABLE "companies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"mail_language" text DEFAULT 'en' NOT NULL,
	"logo_key" text,
	"credits" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "companies_credits_nonnegative" CHECK ("companies"."credits" >= 0),
	CONSTRAINT "companies_mail_language_ck" CHECK ("companies"."mail_language" in ('en', 'fr'))
);
--> statement-breakpoint
CREATE TABLE "consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"text_version" text NOT NULL,
	"text" text NOT NULL,
	"language" text NOT NULL,
	"ip" text NOT NULL,
	"user_agent" text,
	"accepted_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"transaction_type" text NOT NULL,
	"credits" integer NOT NULL,
	"amount" integer DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'eur' NOT NULL,
	"request_id" uuid,
	"payment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_transactions_type_ck" CHECK ("credit_transactions"."transaction_type" in ('signup_bonus', 'credit_purchase', 'testimonial_payment', 'adjustment'))
);
--> statement-breakpoint
CREATE TABLE "email_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_tokens_purpose_ck" CHECK ("email_tokens"."purpose" in ('confirm_email', 'reset_password'))
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"provider" text DEFAULT 'stripe' NOT NULL,
	"session_id" text NOT NULL,
	"package_id" text NOT NULL,
	"price_id" text NOT NULL,
	"credits" integer NOT NULL,
	"amount_total" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"fulfilled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"text" text NOT NULL,
	"order_position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_token_families" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"remember_me" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"family_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"rotated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_questions" (
	"request_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"question_text" text NOT NULL,
	"order_position" integer NOT NULL,
	CONSTRAINT "request_questions_request_id_question_id_pk" PRIMARY KEY("request_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "testimonial_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"token" text NOT NULL,
	"customer_name" text NOT NULL,
	"customer_email" text NOT NULL,
	"customer_position" text,
	"language" text DEFAULT 'english' NOT NULL,
	"gift" text,
	"background_color" text DEFAULT '#000000' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_reminder_sent" timestamp with time zone,
	"reminder_count" integer DEFAULT 0 NOT NULL,
	"paid" boolean DEFAULT false NOT NULL,
	"paid_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"submitter_name" text,
	"submitter_title" text,
	"submission_hash" text,
	"merged_key" text,
	"merged_subtitles_key" text,
	"short_key" text,
	"short_original_key" text,
	"render_state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "testimonial_requests_status_ck" CHECK ("testimonial_requests"."status" in ('pending', 'completed', 'expired')),
	CONSTRAINT "testimonial_requests_language_ck" CHECK ("testimonial_requests"."language" in ('english', 'french'))
);
--> statement-breakpoint
CREATE TABLE "testimonial_responses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"question_text" text NOT NULL,
	"order_position" integer NOT NULL,
	"bg_color" text DEFAULT '#000000' NOT NULL,
	"original_key" text NOT NULL,
	"original_sha256" text NOT NULL,
	"video_key" text,
	"poster_key" text,
	"duration_seconds" real,
	"width" integer,
	"height" integer,
	"modified_key" text,
	"intro_generated" boolean DEFAULT false NOT NULL,
	"has_subtitles" boolean DEFAULT false NOT NULL,
	"short_key" text,
	"short_original_key" text,
	"render_state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transcription_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"result" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transcription_jobs_status_ck" CHECK ("transcription_jobs"."status" in ('queued', 'processing', 'done', 'error'))
);
--> statement-breakpoint
CREATE TABLE "transcriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"response_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"engine" text NOT NULL,
	"language" text NOT NULL,
	"segments" jsonb NOT NULL,
	"edited" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"firstname" text NOT NULL,
	"lastname" text NOT NULL,
	"avatar_url" text,
	"google_sub" text,
	"email_confirmed_at" timestamp with time zone,
	"onboarding_completed" boolean DEFAULT false NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "video_style_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"font_size_question" integer DEFAULT 36 NOT NULL,
	"font_color_question" text DEFAULT '#ffffff' NOT NULL,
	"font_style_question" text DEFAULT 'Arial' NOT NULL,
	"font_bold_question" boolean DEFAULT false NOT NULL,
	"font_size_subtitle" integer DEFAULT 24 NOT NULL,
	"font_color_subtitle" text DEFAULT '#ffffff' NOT NULL,
	"font_style_subtitle" text DEFAULT 'Arial' NOT NULL,
	"font_bold_subtitle" boolean DEFAULT false NOT NULL,
	"subtitle_border" boolean DEFAULT true NOT NULL,
	"background_color" text DEFAULT '#000000' NOT NULL,
	"show_logo_in_videos" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_request_id_testimonial_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."testimonial_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_transactions" ADD CONSTRAINT "credit_transactions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_transactions" ADD CONSTRAINT "credit_transactions_request_id_testimonial_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."testimonial_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_transactions" ADD CONSTRAINT "credit_transactions_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_token_families" ADD CONSTRAINT "refresh_token_families_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_family_id_refresh_token_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."refresh_token_families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_questions" ADD CONSTRAINT "request_questions_request_id_testimonial_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."testimonial_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_questions" ADD CONSTRAINT "request_questions_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD CONSTRAINT "testimonial_requests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "testimonial_responses" ADD CONSTRAINT "testimonial_responses_request_id_testimonial_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."testimonial_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "testimonial_responses" ADD CONSTRAINT "testimonial_responses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "testimonial_responses" ADD CONSTRAINT "testimonial_responses_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcription_jobs" ADD CONSTRAINT "transcription_jobs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcription_jobs" ADD CONSTRAINT "transcription_jobs_request_id_testimonial_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."testimonial_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcriptions" ADD CONSTRAINT "transcriptions_response_id_testimonial_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."testimonial_responses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcriptions" ADD CONSTRAINT "transcriptions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_style_settings" ADD CONSTRAINT "video_style_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "companies_name_lower_uq" ON "companies" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "consents_request_uq" ON "consents" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "credit_transactions_company_idx" ON "credit_transactions" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_transactions_payment_uq" ON "credit_transactions" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_transactions_view_uq" ON "credit_transactions" USING btree ("company_id","request_id") WHERE "credit_transactions"."transaction_type" = 'testimonial_payment';--> statement-breakpoint
CREATE UNIQUE INDEX "email_tokens_hash_uq" ON "email_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "email_tokens_user_idx" ON "email_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_session_uq" ON "payments" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "payments_company_idx" ON "payments" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "questions_company_position_idx" ON "questions" USING btree ("company_id","order_position");--> statement-breakpoint
CREATE INDEX "refresh_families_user_idx" ON "refresh_token_families" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_hash_uq" ON "refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "request_questions_question_idx" ON "request_questions" USING btree ("question_id");--> statement-breakpoint
CREATE UNIQUE INDEX "testimonial_requests_token_uq" ON "testimonial_requests" USING btree ("token");--> statement-breakpoint
CREATE INDEX "testimonial_requests_company_idx" ON "testimonial_requests" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "testimonial_responses_request_question_uq" ON "testimonial_responses" USING btree ("request_id","question_id");--> statement-breakpoint
CREATE INDEX "testimonial_responses_company_idx" ON "testimonial_responses" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "testimonial_responses_question_idx" ON "testimonial_responses" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "transcription_jobs_company_idx" ON "transcription_jobs" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "transcriptions_response_uq" ON "transcriptions" USING btree ("response_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_uq" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_google_sub_uq" ON "users" USING btree ("google_sub");--> statement-breakpoint
CREATE INDEX "users_company_idx" ON "users" USING btree ("company_id");