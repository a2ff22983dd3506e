import type { TRequestStatus } from "../../../../contract/constants.js";

/**
 * What a row of the testimonials list offers (spec §4): a completed and paid testimonial can be
 * viewed, a completed and unpaid one can be paid for (one credit), any other status shows a
 * disabled view button.
 */
export type TTestimonialAction = "view" | "pay" | "unavailable";

export function testimonialAction(testimonial: {
  status: TRequestStatus;
  paid: boolean;
}): TTestimonialAction {
  if (testimonial.status !== "completed") return "unavailable";
  return testimonial.paid ? "view" : "pay";
}
