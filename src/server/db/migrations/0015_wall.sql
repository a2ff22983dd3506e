-- The wall of testimonials (issue 19, decisions 142 and 143): one wall per company, at an address made of
-- its name and 10 random characters; each publication has its place on the wall (null: not placed yet,
-- shown first, newest first) or is hidden from it.
CREATE TABLE "walls" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "walls" ADD CONSTRAINT "walls_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "walls_slug_uq" ON "walls" USING btree ("slug");--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "wall_position" integer;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "wall_hidden" boolean DEFAULT false NOT NULL;
