-- Posters that show a face (issue 27 item 12, decision 168). publications.duration_seconds: the published
-- video's length, shown as a badge before it plays; publications.poster_seconds: the moment of the video
-- the company chose as its poster, or null for the automatic frame (a moment into the answer).
-- Existing publications get their duration here, by the rule the server uses when publishing: the end of
-- the last answer in the video (its offset in caption_parts plus its recorded length). Their poster is
-- left as it is (decision 168): a new render or the company's frame picker gives them an answer's frame.
ALTER TABLE "publications" ADD COLUMN "duration_seconds" real;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "poster_seconds" real;--> statement-breakpoint
UPDATE "publications" SET "duration_seconds" = "ends"."seconds"
FROM (
  SELECT "p"."id", max(("part"->>'offset')::real + "r"."duration_seconds") AS "seconds"
  FROM "publications" AS "p"
  CROSS JOIN LATERAL jsonb_array_elements("p"."caption_parts") AS "part"
  JOIN "testimonial_responses" AS "r" ON "r"."id" = ("part"->>'responseId')::uuid
  GROUP BY "p"."id"
) AS "ends"
WHERE "publications"."id" = "ends"."id";
