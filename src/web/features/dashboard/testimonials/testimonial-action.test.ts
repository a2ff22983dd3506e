import { describe, expect, it } from "vitest";
import { testimonialAction } from "./testimonial-action";

describe("testimonialAction", () => {
  it("lets a completed and paid testimonial be viewed", () => {
    expect(testimonialAction({ status: "completed", paid: true })).toBe("view");
  });
  it("offers to pay for a completed and unpaid testimonial", () => {
    expect(testimonialAction({ status: "completed", paid: false })).toBe("pay");
  });
  it("shows a disabled view for every other status, paid or not", () => {
    for (const status of ["pending", "expired"] as const) {
      expect(testimonialAction({ status, paid: false })).toBe("unavailable");
      expect(testimonialAction({ status, paid: true })).toBe("unavailable");
    }
  });
});
