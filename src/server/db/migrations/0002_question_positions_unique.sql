-- Positions are dense and unique per company. Deferred, so that a reorder can shift several rows
-- inside one transaction and the constraint is checked at commit.
ALTER TABLE "questions" ADD CONSTRAINT "questions_company_position_uq" UNIQUE ("company_id", "order_position") DEFERRABLE INITIALLY DEFERRED;
