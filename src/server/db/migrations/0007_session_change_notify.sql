-- Access tokens name their session (a refresh-token family), and the API checks on every call that it
-- is still open, through the company read cache (modules/auth/sessions.ts). A session row changes when
-- it ends (sign-out, password reset, a replayed refresh token) or goes with its user: announce it on
-- migration 0004's 'company_changed' channel under the user's company, so that every API process drops
-- the cached row at once. A user already deleted (the rows go by cascade) leaves no company: '*'.
CREATE FUNCTION "notify_session_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"owner" uuid;
	"company" text;
BEGIN
	IF TG_OP = 'DELETE' THEN "owner" := OLD."user_id"; ELSE "owner" := NEW."user_id"; END IF;
	SELECT "company_id"::text INTO "company" FROM "users" WHERE "id" = "owner";
	PERFORM pg_notify('company_changed', coalesce("company", '*') || '/' || pg_current_xact_id()::text);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "refresh_token_families_notify_company" AFTER UPDATE OR DELETE ON "refresh_token_families"
	FOR EACH ROW EXECUTE FUNCTION "notify_session_change"();
--> statement-breakpoint
CREATE TRIGGER "refresh_token_families_notify_truncate" AFTER TRUNCATE ON "refresh_token_families"
	FOR EACH STATEMENT EXECUTE FUNCTION "notify_company_change"('user_id');
