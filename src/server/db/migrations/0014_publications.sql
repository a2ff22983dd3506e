-- Publications (issue 19): a ready render of a paid testimonial, or an answer as recorded, published at
-- an unguessable slug (128 random bits, base64url) for its share page, embed and oEmbed. The storage
-- keys of the video and its poster, its size and where its captions come from are resolved when it is
-- published. Unpublishing sets `unpublished_at`; the public routes read only rows where it is null.
CREATE TABLE "publications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"job_id" uuid,
	"response_id" uuid,
	"slug" text NOT NULL,
	"video_key" text NOT NULL,
	"poster_key" text,
	"width" integer,
	"height" integer,
	"caption_parts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"unpublished_at" timestamp with time zone,
	CONSTRAINT "publications_subject_ck" CHECK ("publications"."job_id" is not null or "publications"."response_id" is not null)
);
--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_request_id_testimonial_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."testimonial_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_response_id_testimonial_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."testimonial_responses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "publications_slug_uq" ON "publications" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "publications_company_request_idx" ON "publications" USING btree ("company_id","request_id","created_at");
