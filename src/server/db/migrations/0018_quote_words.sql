-- A quote is checked against the engine's own words (decision 154). transcriptions.original_segments keeps
-- them apart from the company's edits; it is written by every engine run from now on. Existing rows keep
-- null: a row never edited has the engine's words in "segments" (the server reads them there, and keeps
-- them aside at its first edit), and the words of a row edited before this migration are lost.
-- publications.quote_edited: the quote is found only in the transcript as edited, and the share page
-- says so. An existing quote was checked against the transcript as edited; where a transcript of its
-- video was edited, whether it is the customer's words cannot be known, so it is labelled edited.
ALTER TABLE "transcriptions" ADD COLUMN "original_segments" jsonb;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "quote_edited" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "publications" SET "quote_edited" = true
WHERE "quote" IS NOT NULL
  AND EXISTS (
    SELECT 1 FROM jsonb_array_elements("publications"."caption_parts") AS "part"
    JOIN "transcriptions" ON "transcriptions"."response_id" = ("part"->>'responseId')::uuid
    WHERE "transcriptions"."edited"
  );
