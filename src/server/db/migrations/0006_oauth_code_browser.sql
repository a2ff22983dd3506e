-- Codes issued before this release are not bound to a browser: drop them (they live 5 minutes).
DELETE FROM "oauth_codes";
--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD COLUMN "browser_hash" text NOT NULL;
