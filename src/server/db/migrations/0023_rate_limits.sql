-- The counters of the limits shared by every API process (decision 178), in the shape rate-limiter-flexible's
-- PostgreSQL limiter reads and writes: one row per limit and key ("name:key"), its points in the current
-- window and the window's end in milliseconds since the epoch (null: no end). Created here so that the app
-- runs no DDL at run time (the limiter is given tableCreated: true). The key is text, not the library's
-- varchar(255): a key holds an e-mail address, which may be longer with its prefix. UNLOGGED: a counter is
-- written on every limited call and needs no durability (no WAL flush per call, ~6x faster measured here);
-- a database crash or a fail-over to a replica starts the windows afresh.
CREATE UNLOGGED TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);--> statement-breakpoint
CREATE INDEX "rate_limits_expire_idx" ON "rate_limits" USING btree ("expire");
