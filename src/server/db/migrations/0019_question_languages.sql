-- A question has a text in English and one in French, either of which may be missing, never both
-- (decision 165). An existing question keeps its text as the language of the company's mail language
-- setting: chosen at sign-up from the language the person used, and the language in which the company
-- writes to its customers, so the likeliest language of the questions it wrote for them.
ALTER TABLE "questions" ADD COLUMN "text_en" text;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "text_fr" text;--> statement-breakpoint
UPDATE "questions" SET
  "text_en" = CASE WHEN "companies"."mail_language" = 'fr' THEN NULL ELSE "questions"."text" END,
  "text_fr" = CASE WHEN "companies"."mail_language" = 'fr' THEN "questions"."text" ELSE NULL END
FROM "companies" WHERE "companies"."id" = "questions"."company_id";--> statement-breakpoint
ALTER TABLE "questions" DROP COLUMN "text";--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_text_ck" CHECK (coalesce("questions"."text_en", '') <> '' or coalesce("questions"."text_fr", '') <> '');
