-- A publication's quote (issue 19): a sentence or two the company picked from the customer's own
-- transcript, shown as text beside the video on the share page and the wall, and as og:description.
ALTER TABLE "publications" ADD COLUMN "quote" text;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_quote_length_ck" CHECK ("publications"."quote" is null or char_length("publications"."quote") between 1 and 300);
