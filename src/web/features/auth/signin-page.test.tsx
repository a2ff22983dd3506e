// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import {
  act,
  cleanup,
  fireEvent,
  render,
  screen,
  waitFor,
} from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../../i18n/i18n";
import { AuthProvider } from "../../lib/auth-context";
import { BRAND_NAME } from "../../lib/brand";
import { SigninPage } from "./signin-page";
import type { TSigninLocationState } from "./signin-page";

/**
 * Issue 27 item 8: the sign-in page a new user lands on. After sign-up it welcomes them and says where
 * the confirmation link went until they close the notice; after the link it welcomes them with the
 * address filled in (decision 160).
 */

const EMAIL = "camille@example.com";

function renderSignin(
  entry:
    string | { pathname: string; search?: string; state: TSigninLocationState },
) {
  const router = createMemoryRouter(
    [
      {
        path: "/signin",
        element: (
          <AuthProvider>
            <SigninPage />
          </AuthProvider>
        ),
      },
    ],
    { initialEntries: [entry] },
  );
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const emailField = () =>
  screen.getByLabelText<HTMLInputElement>(i18n.t("signin.email"));
const passwordField = () =>
  screen.getByLabelText<HTMLInputElement>(i18n.t("signin.password"));

beforeEach(async () => {
  await i18n.changeLanguage("en");
  localStorage.clear();
  sessionStorage.clear();
  vi.stubGlobal("fetch", async (input: RequestInfo | URL) => {
    throw new Error(`unexpected call ${String(input)}`);
  });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("after sign-up", () => {
  const signedUp = {
    pathname: "/signin",
    state: { notice: "signedUp", email: EMAIL } satisfies TSigninLocationState,
  };

  it("welcomes the new user and keeps the notice past 5 s, with the e-mail filled in", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderSignin(signedUp);
    const notice = await screen.findByTestId("signup-notice");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(
      `Welcome to ${BRAND_NAME}`,
    );
    expect(screen.queryByText("Welcome back")).toBeNull();
    expect(notice.textContent).toContain("Your account is created");
    expect(notice.textContent).toContain(EMAIL);
    expect(emailField().value).toBe(EMAIL);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(screen.getByTestId("signup-notice").textContent).toContain(EMAIL);
  });

  it("closes the notice only when asked, and not again after a reload of the same entry", async () => {
    const router = renderSignin(signedUp);
    fireEvent.click(await screen.findByRole("button", { name: "Dismiss" }));
    await waitFor(() =>
      expect(screen.queryByTestId("signup-notice")).toBeNull(),
    );
    // The welcome stays: the person is still new.
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(
      `Welcome to ${BRAND_NAME}`,
    );
    expect(router.state.location.state).toEqual({
      notice: "signedUp",
      email: EMAIL,
      noticeClosed: true,
    });
    cleanup();

    renderSignin({
      pathname: "/signin",
      state: router.state.location.state as TSigninLocationState,
    });
    await screen.findByTestId("signin-submit");
    expect(screen.queryByTestId("signup-notice")).toBeNull();
    expect(emailField().value).toBe(EMAIL);
  });

  it("speaks French", async () => {
    await i18n.changeLanguage("fr");
    renderSignin(signedUp);
    const notice = await screen.findByTestId("signup-notice");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(
      `Bienvenue sur ${BRAND_NAME}`,
    );
    expect(notice.textContent).toContain(
      `Nous avons envoyé un lien de confirmation à ${EMAIL}`,
    );
    expect(screen.getByRole("button", { name: "Fermer" })).toBeTruthy();
  });
});

describe("after the confirmation link", () => {
  it("welcomes the new user with the confirmed address filled in and the password to type", async () => {
    renderSignin(
      `/signin?confirm=confirmed&email=${encodeURIComponent(EMAIL)}`,
    );
    expect(
      (await screen.findByTestId("confirm-message")).textContent,
    ).toContain("Your e-mail address is confirmed");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(
      `Welcome to ${BRAND_NAME}`,
    );
    expect(emailField().value).toBe(EMAIL);
    await waitFor(() => expect(document.activeElement).toBe(passwordField()));
  });

  it("still says welcome back to someone whose link was already used", async () => {
    renderSignin(`/signin?confirm=used&email=${encodeURIComponent(EMAIL)}`);
    await screen.findByTestId("confirm-message");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(
      "Welcome back",
    );
    expect(emailField().value).toBe(EMAIL);
  });

  it("leaves a plain visit to the sign-in page as it was", async () => {
    renderSignin("/signin");
    await screen.findByTestId("signin-submit");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(
      "Welcome back",
    );
    expect(emailField().value).toBe("");
    expect(screen.queryByRole("status")).toBeNull();
  });
});
