-- View analytics of publications (issue 19, decision 144). Counts per publication and day (UTC); the
-- marks of milestones already counted for a viewer (a salted hash, kept 30 minutes, then pruned); the
-- random salt of each day's hashes, shared by every API process and deleted the day after.
CREATE TABLE "publication_views" (
	"publication_id" uuid NOT NULL,
	"day" date NOT NULL,
	"started" integer DEFAULT 0 NOT NULL,
	"p25" integer DEFAULT 0 NOT NULL,
	"p50" integer DEFAULT 0 NOT NULL,
	"p75" integer DEFAULT 0 NOT NULL,
	"p100" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "publication_views_publication_id_day_pk" PRIMARY KEY("publication_id","day")
);
--> statement-breakpoint
CREATE TABLE "publication_view_marks" (
	"mark" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "view_salts" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "publication_views" ADD CONSTRAINT "publication_views_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "publication_view_marks_expires_idx" ON "publication_view_marks" USING btree ("expires_at");
