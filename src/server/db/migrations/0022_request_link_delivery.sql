-- A request can be sent by the company itself, by copying its private link (decision 173): the customer's
-- e-mail becomes optional for those requests, and "delivery" says which way the link went ('email': the
-- invitation e-mail, as every existing request; 'link': copied by the company, no e-mail sent). Reminders
-- are e-mailed only to a request that has an address.
ALTER TABLE "testimonial_requests" ALTER COLUMN "customer_email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD COLUMN "delivery" text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD CONSTRAINT "testimonial_requests_delivery_ck" CHECK ("testimonial_requests"."delivery" in ('email', 'link'));--> statement-breakpoint
ALTER TABLE "testimonial_requests" ADD CONSTRAINT "testimonial_requests_email_delivery_ck" CHECK ("testimonial_requests"."delivery" = 'link' OR "testimonial_requests"."customer_email" IS NOT NULL);
