CREATE TABLE "pending_objects" (
	"key" text PRIMARY KEY NOT NULL,
	"holder" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "pending_objects_holder_idx" ON "pending_objects" USING btree ("holder");