import { describe, expect, it } from "vitest";
import { CREDIT_PACKAGES } from "../../../../contract/constants.js";
import { creditForm } from "../../../lib/credits";
import { packageFigures } from "./package-display";
import { readPaymentReturn } from "./payment-return";

const NBSP = "\u00a0";
const medium = CREDIT_PACKAGES.find((pkg) => pkg.id === "medium")!;
const starter = CREDIT_PACKAGES.find((pkg) => pkg.id === "starter")!;

describe("packageFigures", () => {
  it("formats prices as '{amount} €' in French and '€{amount}' otherwise", () => {
    expect(packageFigures(medium, "fr")).toEqual({
      total: `250${NBSP}€`,
      unit: `10${NBSP}€`,
      discount: `33${NBSP}%`,
    });
    expect(packageFigures(medium, "fr-FR").total).toBe(`250${NBSP}€`);
    expect(packageFigures(medium, "en")).toEqual({
      total: "€250",
      unit: "€10",
      discount: "33%",
    });
    expect(packageFigures(medium, "de").total).toBe("€250");
  });
  it("has no discount for the package without one", () => {
    expect(packageFigures(starter, "en")).toEqual({
      total: "€75",
      unit: "€15",
      discount: null,
    });
  });
  it("matches the packages of the spec (§9)", () => {
    expect(
      CREDIT_PACKAGES.map((pkg) => [
        pkg.name,
        pkg.credits,
        pkg.unitPrice,
        pkg.totalPrice,
        pkg.discountPercent,
        pkg.featured,
      ]),
    ).toEqual([
      ["Starter", 5, 15, 75, 0, false],
      ["Small", 10, 12, 120, 20, false],
      ["Medium", 25, 10, 250, 33, true],
      ["Large", 50, 8, 400, 47, false],
      ["Extra Large", 150, 6, 900, 60, false],
    ]);
    expect(
      CREDIT_PACKAGES.map((pkg) => packageFigures(pkg, "en").total),
    ).toEqual(["€75", "€120", "€250", "€400", "€900"]);
  });
});

describe("credit label", () => {
  it("is singular at 1 or fewer, plural above", () => {
    expect([0, 1, 2, 25].map(creditForm)).toEqual([
      "singular",
      "singular",
      "plural",
      "plural",
    ]);
  });
});

describe("readPaymentReturn", () => {
  const read = (query: string) => readPaymentReturn(new URLSearchParams(query));
  it("reads a success with its session id", () => {
    expect(read("success=true&session_id=cs_test_123")).toEqual({
      kind: "success",
      sessionId: "cs_test_123",
    });
  });
  it("reads a success without a session id", () => {
    expect(read("success=true")).toEqual({ kind: "success", sessionId: null });
    expect(read("success=1&session_id=")).toEqual({
      kind: "success",
      sessionId: null,
    });
  });
  it("reads a cancel", () => {
    expect(read("cancel=true")).toEqual({ kind: "cancel" });
  });
  it("ignores absent or false flags", () => {
    expect(read("")).toEqual({ kind: "none" });
    expect(read("success=false")).toEqual({ kind: "none" });
    expect(read("cancel=false&session_id=cs_1")).toEqual({ kind: "none" });
  });
});
