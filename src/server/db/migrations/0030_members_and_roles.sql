CREATE TABLE "invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invitations_role_ck" CHECK ("invitations"."role" in ('owner', 'editor', 'viewer'))
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_role_ck" CHECK ("memberships"."role" in ('owner', 'editor', 'viewer'))
);
--> statement-breakpoint
ALTER TABLE "refresh_token_families" ADD COLUMN "company_id" uuid;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_token_uq" ON "invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "invitations_company_idx" ON "invitations" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_company_user_uq" ON "memberships" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE INDEX "memberships_user_idx" ON "memberships" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "refresh_token_families" ADD CONSTRAINT "refresh_token_families_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- hand-written: members and roles (issue 32, decision 215). Every existing user becomes the owner of the
-- company they signed up with, and every existing sign-in works in that company.
INSERT INTO "memberships" ("company_id", "user_id", "role", "created_at")
	SELECT "company_id", "id", 'owner', "created_at" FROM "users"
	ON CONFLICT DO NOTHING;
--> statement-breakpoint
UPDATE "refresh_token_families" AS f SET "company_id" = u."company_id" FROM "users" AS u WHERE u."id" = f."user_id" AND f."company_id" IS NULL;
--> statement-breakpoint
-- A change of membership (added, role changed, removed) is announced under its company, so that the auth
-- guard's cached sessions of that company (modules/auth/sessions.ts) are read again at once.
CREATE TRIGGER "memberships_notify_company" AFTER INSERT OR UPDATE OR DELETE ON "memberships"
	FOR EACH ROW EXECUTE FUNCTION "notify_company_change"('company_id');
--> statement-breakpoint
CREATE TRIGGER "memberships_notify_truncate" AFTER TRUNCATE ON "memberships"
	FOR EACH STATEMENT EXECUTE FUNCTION "notify_company_change"('company_id');
--> statement-breakpoint
-- A session is now announced under the company it works in (before and after a switch), falling back to
-- its user's company for a row without one; '*' when neither is known any more.
CREATE OR REPLACE FUNCTION "notify_session_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"owner" uuid;
	"home" text;
	"old_company" text;
	"new_company" text;
	"tx" text := '/' || pg_current_xact_id()::text;
BEGIN
	IF TG_OP = 'DELETE' THEN "owner" := OLD."user_id"; ELSE "owner" := NEW."user_id"; END IF;
	SELECT "company_id"::text INTO "home" FROM "users" WHERE "id" = "owner";
	"old_company" := coalesce(OLD."company_id"::text, "home", '*');
	IF TG_OP <> 'DELETE' THEN
		"new_company" := coalesce(NEW."company_id"::text, "home", '*');
		PERFORM pg_notify('company_changed', "new_company" || "tx");
	END IF;
	IF "old_company" IS DISTINCT FROM "new_company" THEN PERFORM pg_notify('company_changed', "old_company" || "tx"); END IF;
	RETURN NULL;
END $$;
