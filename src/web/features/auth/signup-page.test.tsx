// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import {
  cleanup,
  fireEvent,
  render,
  screen,
  waitFor,
} from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import type { TSignupBody, TUser } from "../../../contract/api/auth.schema.js";
import { API } from "../../../contract/api/paths.js";
import i18n from "../../i18n/i18n";
import { AuthProvider } from "../../lib/auth-context";
import { BRAND_NAME } from "../../lib/brand";
import { SigninPage } from "./signin-page";
import { SignupPage } from "./signup-page";

/**
 * Issue 27 item 8: a normal sign-up ends on the sign-in page, which welcomes the new user with a
 * notice that stays (decision 160), and the e-mail filled in.
 */

const EMAIL = "camille@example.com";

function user(body: TSignupBody): TUser {
  return {
    id: "7b0c1c3e-4a57-4c1e-9d8e-2f1a6b7c8d90",
    company_id: "1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b",
    email: body.email,
    firstname: body.firstname,
    lastname: body.lastname,
    avatar_url: null,
    onboarding_completed: false,
    email_confirmed: false,
    mail_language: "en",
  };
}

let sent: TSignupBody[] = [];

beforeEach(async () => {
  await i18n.changeLanguage("en");
  localStorage.clear();
  sessionStorage.clear();
  sent = [];
  vi.stubGlobal(
    "fetch",
    async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) !== API.auth.signup.path)
        throw new Error(`unexpected call ${String(input)}`);
      const body = JSON.parse(String(init?.body)) as TSignupBody;
      sent.push(body);
      return new Response(JSON.stringify({ user: user(body) }), {
        status: 201,
        headers: { "content-type": "application/json" },
      });
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const atStep = (step: number) =>
  waitFor(() =>
    expect(screen.getByTestId("signup-step").getAttribute("data-step")).toBe(
      String(step),
    ),
  );

// That the notice outlasts the old 3 s is checked in signin-page.test.tsx, with fake timers.
it("lands on the sign-in page with a welcome and a notice naming the address", async () => {
  const router = createMemoryRouter(
    [
      {
        path: "/signup",
        element: (
          <AuthProvider>
            <SignupPage />
          </AuthProvider>
        ),
      },
      {
        path: "/signin",
        element: (
          <AuthProvider>
            <SigninPage />
          </AuthProvider>
        ),
      },
    ],
    { initialEntries: ["/signup"] },
  );
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );

  fill("First name", "Camille");
  fill("Last name", "Durand");
  fill("Work e-mail address", EMAIL);
  fireEvent.click(screen.getByTestId("signup-next"));
  await atStep(2);
  fill("Company name", "Atelier Durand");
  fireEvent.click(screen.getByTestId("signup-next"));
  await atStep(3);
  fill("Password", "correct horse 42");
  fill("Confirm your password", "correct horse 42");
  fireEvent.click(screen.getByTestId("signup-submit"));

  const notice = await screen.findByTestId("signup-notice");
  expect(router.state.location.pathname).toBe("/signin");
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ email: EMAIL, lang: "en" });
  expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(
    `Welcome to ${BRAND_NAME}`,
  );
  expect(notice.textContent).toContain(
    `We've sent a confirmation link to ${EMAIL}`,
  );
  expect(screen.getByLabelText<HTMLInputElement>("E-mail address").value).toBe(
    EMAIL,
  );
});
