import { describe, expect, it } from "vitest";
import { formatTransactionAmount } from "./transactions-screen";

const base = {
  id: "1",
  currency: "eur",
  date: "2026-01-01T00:00:00.000Z",
  testimonial: null,
};

describe("formatTransactionAmount", () => {
  it("shows credit purchases as amount / 100 with two decimals", () => {
    expect(
      formatTransactionAmount(
        { ...base, transaction_type: "credit_purchase", amount: 25000 },
        "en",
      ),
    ).toBe("250.00");
    expect(
      formatTransactionAmount(
        { ...base, transaction_type: "credit_purchase", amount: 7550 },
        "fr",
      ),
    ).toBe("75,50");
  });
  it("shows other types as is", () => {
    expect(
      formatTransactionAmount(
        { ...base, transaction_type: "testimonial_payment", amount: 1 },
        "en",
      ),
    ).toBe("1");
  });
});
