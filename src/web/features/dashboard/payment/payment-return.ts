/**
 * What the return from the checkout says (spec §4, §8): `?success=true&session_id=…` after a payment,
 * `?cancel=true` after a cancelled one, nothing otherwise. `success=false` or `cancel=false` count as
 * absent. The session id, when present, is confirmed with the server before credits are shown.
 */
export type TPaymentReturn =
  | { kind: "success"; sessionId: string | null }
  | { kind: "cancel" }
  | { kind: "none" };

/** The query parameters the return uses, removed when the banner is dismissed. */
export const PAYMENT_RETURN_PARAMS = [
  "success",
  "cancel",
  "session_id",
] as const;

function isSet(value: string | null): boolean {
  return (
    value !== null &&
    value.trim().toLowerCase() !== "false" &&
    value.trim() !== "0"
  );
}

export function readPaymentReturn(params: URLSearchParams): TPaymentReturn {
  if (isSet(params.get("success"))) {
    const sessionId = params.get("session_id")?.trim() ?? "";
    return {
      kind: "success",
      sessionId: sessionId.length > 0 ? sessionId : null,
    };
  }
  if (isSet(params.get("cancel"))) return { kind: "cancel" };
  return { kind: "none" };
}
