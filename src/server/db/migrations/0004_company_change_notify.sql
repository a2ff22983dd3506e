-- Every committed change of a company's requests or of the company itself is announced on the
-- 'company_changed' channel as '<company id>/<transaction id>': the API processes drop what they cached
-- for that company (lib/read-cache.ts). A trigger, so that every writer (API, workers, a manual fix)
-- announces. The transaction id tells the copies of one announcement heard on several connections apart
-- from a later change.
CREATE FUNCTION "notify_company_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"old_company" text;
	"new_company" text;
	"tx" text := '/' || pg_current_xact_id()::text;
BEGIN
	-- TRUNCATE (tests, a manual clean-up) names no company: '*' drops every cached read.
	IF TG_OP = 'TRUNCATE' THEN
		PERFORM pg_notify('company_changed', '*' || "tx");
		RETURN NULL;
	END IF;
	IF TG_OP <> 'INSERT' THEN "old_company" := to_jsonb(OLD) ->> TG_ARGV[0]; END IF;
	IF TG_OP <> 'DELETE' THEN "new_company" := to_jsonb(NEW) ->> TG_ARGV[0]; END IF;
	IF "new_company" IS NOT NULL THEN PERFORM pg_notify('company_changed', "new_company" || "tx"); END IF;
	IF "old_company" IS NOT NULL AND "old_company" IS DISTINCT FROM "new_company" THEN
		PERFORM pg_notify('company_changed', "old_company" || "tx");
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "testimonial_requests_notify_company" AFTER INSERT OR UPDATE OR DELETE ON "testimonial_requests"
	FOR EACH ROW EXECUTE FUNCTION "notify_company_change"('company_id');
--> statement-breakpoint
CREATE TRIGGER "companies_notify_company" AFTER UPDATE OR DELETE ON "companies"
	FOR EACH ROW EXECUTE FUNCTION "notify_company_change"('id');
--> statement-breakpoint
CREATE TRIGGER "testimonial_requests_notify_truncate" AFTER TRUNCATE ON "testimonial_requests"
	FOR EACH STATEMENT EXECUTE FUNCTION "notify_company_change"('company_id');
--> statement-breakpoint
CREATE TRIGGER "companies_notify_truncate" AFTER TRUNCATE ON "companies"
	FOR EACH STATEMENT EXECUTE FUNCTION "notify_company_change"('id');
