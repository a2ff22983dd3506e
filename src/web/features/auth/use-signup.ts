import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import type { TGoogleProfile } from '../../../contract/api/auth.schema.js';
import { PASSWORD_MIN_LENGTH, TIMINGS } from '../../../contract/constants.js';
import { useLanguage } from '../../i18n/use-language';
import { isApiError } from '../../lib/api-client';
import { apiErrorMessage } from '../../lib/api-error-message';
import { useAuth } from '../../lib/auth-context';
import { paths } from '../../lib/paths';
import { clearPendingInvitation, getPendingInvitation } from '../../lib/pending-invitation';
import { isGoogleSignupInProgress } from '../../lib/session';
import { getGoogleSignup } from '../../lib/stored-session';
import { useSignupMutation } from './api/signup';
import { isEmail, isFilled, messageKey } from './form-messages';
import type { TSigninLocationState } from './signin-page';

export type TStep = 1 | 2 | 3;
export const TOTAL_STEPS = 3;
/** Spec §2: step 1 fills 0 %, step 2 50 %, step 3 100 %. */
export const PROGRESS: Record<TStep, number> = { 1: 0, 2: 50, 3: 100 };

interface TSignupForm {
  firstname: string;
  lastname: string;
  email: string;
  companyName: string;
  password: string;
  confirmPassword: string;
}
export type TField = keyof TSignupForm;

const STEP_FIELDS: Record<TStep, TField[]> = {
  1: ['firstname', 'lastname', 'email'],
  2: ['companyName'],
  3: ['password', 'confirmPassword'],
};

/**
 * The spec's §5 rules; the messages are the spec's translation keys. Step 3 is skipped for Google, and
 * the company (step 2) when joining a company by an invitation (issue 32).
 */
function signupSchema(fromGoogle: boolean, joining: boolean) {
  return z
    .object({
      firstname: z.string(),
      lastname: z.string(),
      email: z.string(),
      companyName: z.string(),
      password: z.string(),
      confirmPassword: z.string(),
    })
    .superRefine((v, ctx) => {
      const issue = (path: TField, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      if (!isFilled(v.firstname)) issue('firstname', 'signup.errors.firstname');
      if (!isFilled(v.lastname)) issue('lastname', 'signup.errors.lastname');
      if (!isFilled(v.email)) issue('email', 'signup.errors.email');
      else if (!isEmail(v.email)) issue('email', 'signup.errors.emailInvalid');
      if (!joining && !isFilled(v.companyName)) issue('companyName', 'signup.errors.company');
      if (fromGoogle) return;
      if (!isFilled(v.password)) issue('password', 'signup.errors.password');
      else if (v.password.length < PASSWORD_MIN_LENGTH) issue('password', 'signup.errors.passwordShort');
      if (v.confirmPassword !== v.password) issue('confirmPassword', 'signup.errors.confirmPassword');
    });
}

interface TSignupLocationState {
  step?: number;
  fromGoogle?: boolean;
}

function readState(state: unknown): TSignupLocationState {
  return state && typeof state === 'object' ? (state as TSignupLocationState) : {};
}

const toStep = (value: number | undefined, fallback: TStep): TStep =>
  value === 1 || value === 2 || value === 3 ? value : fallback;

/** The step holding a field the server refused. */
function stepOfField(field: string | undefined): TStep | null {
  for (const step of [1, 2, 3] as const) if (STEP_FIELDS[step].includes(field as TField)) return step;
  return null;
}

export type TStepKey = 'about' | 'company' | 'security' | 'googleSecurity';

/**
 * The steps' machine (spec §4): a step is left with a 300 ms exit animation (`exiting`, towards
 * `target`), the next one enters with a 500 ms fade-in (`fadingIn`); the server's refusal shows above
 * the form until a field changes.
 */
export interface TSignupSteps {
  step: TStep;
  /** The step being gone to while the current one leaves. */
  target: TStep | null;
  exiting: boolean;
  fadingIn: boolean;
  serverError: string | null;
}

export type TSignupStepsAction =
  | { type: 'leave'; to: TStep }
  | { type: 'enter' }
  | { type: 'settled' }
  | { type: 'failed'; message: string }
  | { type: 'cleared' };

export const initialSignupSteps = (step: TStep): TSignupSteps => ({ step, target: null, exiting: false, fadingIn: false, serverError: null });

/** The transitions of the sign-up's steps: pure, tested without a browser. */
export function signupStepsReducer(state: TSignupSteps, action: TSignupStepsAction): TSignupSteps {
  switch (action.type) {
    case 'leave':
      return state.exiting || action.to === state.step ? state : { ...state, exiting: true, target: action.to };
    case 'enter':
      return state.target === null ? state : { ...state, step: state.target, target: null, exiting: false, fadingIn: true };
    case 'settled':
      return state.fadingIn ? { ...state, fadingIn: false } : state;
    case 'failed':
      return { ...state, serverError: action.message };
    case 'cleared':
      return state.serverError === null ? state : { ...state, serverError: null };
  }
}

/**
 * Sign-up's state and what it does (spec §2, §4, §5): the steps' machine, the form, the call and where
 * it leads. The page only draws what this returns.
 */
export function useSignup() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const location = useLocation();
  const navigate = useNavigate();
  const { completeSignIn } = useAuth();
  const navState = readState(location.state);

  // The Google variant: flagged by the navigation state or the stored sign-up in progress.
  const [google] = useState(() =>
    navState.fromGoogle === true || isGoogleSignupInProgress() ? getGoogleSignup() : null,
  );
  const fromGoogle = google !== null;
  const profile: TGoogleProfile | undefined = google?.profile;
  // An invitation being accepted (issue 32, decision 218): no company step, the invited e-mail locked.
  const [invitation, setInvitation] = useState(getPendingInvitation);
  const joining = invitation !== null;

  const [state, dispatch] = useReducer(
    signupStepsReducer,
    fromGoogle ? (joining ? 3 : toStep(navState.step, 2)) : 1,
    initialSignupSteps,
  );
  const { step, exiting, fadingIn, serverError } = state;
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const stepRef = useRef<HTMLDivElement>(null);
  const focusOnStepChange = useRef(false);

  const schema = useMemo(() => signupSchema(fromGoogle, joining), [fromGoogle, joining]);
  const {
    register,
    handleSubmit,
    trigger,
    clearErrors,
    formState: { errors },
  } = useForm<TSignupForm>({
    resolver: zodResolver(schema),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: {
      firstname: profile?.firstname ?? '',
      lastname: profile?.lastname ?? '',
      email: invitation?.email ?? profile?.email ?? '',
      companyName: '',
      password: '',
      confirmPassword: '',
    },
  });
  const signup = useSignupMutation();

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  // After a step change, put the keyboard on the new step's first field.
  useEffect(() => {
    if (!focusOnStepChange.current) return;
    focusOnStepChange.current = false;
    stepRef.current?.querySelector<HTMLElement>('input:not([disabled]), button[type="submit"]')?.focus();
  }, [step]);

  const later = (ms: number, run: () => void) => {
    timers.current.push(setTimeout(run, ms));
  };

  /** Spec §4: the step changes after a 300 ms exit animation; the fade-in flag then lasts 500 ms. */
  const goTo = (next: TStep) => {
    if (exiting || next === step) return;
    dispatch({ type: 'leave', to: next });
    later(TIMINGS.signupStepExitMs, () => {
      focusOnStepChange.current = true;
      dispatch({ type: 'enter' });
      later(TIMINGS.signupFadeInMs, () => dispatch({ type: 'settled' }));
    });
  };

  const next = async () => {
    if (step === 3) return;
    const valid = await trigger(STEP_FIELDS[step]);
    if (valid) goTo(joining && step === 1 ? 3 : ((step + 1) as TStep));
  };
  const back = () => {
    if (step > 1) goTo(joining && step === 3 ? 1 : ((step - 1) as TStep));
  };
  /** "Create my own company instead": the invitation is forgotten and the usual sign-up goes on. */
  const dropInvitation = () => {
    clearPendingInvitation();
    setInvitation(null);
  };

  /** A field Google filled in is shown locked; an empty one stays editable. */
  const locked = (value: string | undefined) => fromGoogle && Boolean(value?.trim());
  /** The invited address is the account's: it is shown, not edited. */
  const emailLocked = joining || locked(profile?.email);

  const onFailure = (error: unknown) => {
    console.warn('Sign-up failed.', error);
    dispatch({ type: 'failed', message: apiErrorMessage(error, t) });
    // Send the person back to the step whose field the server refused (company name taken…).
    const fieldStep = isApiError(error) ? stepOfField(error.errorKey === 'emailExists' ? 'email' : error.field) : null;
    if (fieldStep && fieldStep !== step) goTo(fieldStep);
  };

  const onValid = (values: TSignupForm) => {
    dispatch({ type: 'cleared' });
    const base = {
      firstname: values.firstname.trim(),
      lastname: values.lastname.trim(),
      // A disabled field has no value in the form: the invited address is sent as it was invited.
      email: invitation ? invitation.email : values.email.trim(),
      ...(invitation ? { invitation: invitation.token } : { companyName: values.companyName.trim() }),
      lang: language,
    };
    /** Joining by an invitation opens a session at once: straight into the inviting company. */
    const joined = ({ user, token, refreshToken }: { user: Parameters<typeof completeSignIn>[0]['user']; token?: string | undefined; refreshToken?: string | undefined }) => {
      if (!token) {
        onFailure(new Error('The sign-up by invitation answered without a session.'));
        return;
      }
      clearPendingInvitation();
      completeSignIn({ token, refreshToken, user, rememberMe: fromGoogle });
      void navigate(paths.dashboard.root, { replace: true });
    };
    if (google) {
      signup.mutate(
        {
          ...base,
          // Locked fields carry Google's values as they are.
          firstname: locked(google.profile.firstname) ? google.profile.firstname : base.firstname,
          lastname: locked(google.profile.lastname) ? google.profile.lastname : base.lastname,
          email: google.profile.email,
          fromGoogle: true,
          googleId: google.profile.sub,
          picture: google.profile.picture,
          accessToken: google.accessToken,
        },
        {
          onSuccess: ({ user, token, refreshToken }) => {
            if (invitation) return joined({ user, token, refreshToken });
            if (!token) {
              onFailure(new Error('The Google sign-up answered without a session.'));
              return;
            }
            // Clears the Google keys and stores the session (Google sessions last 30 days).
            completeSignIn({ token, refreshToken, user, rememberMe: true });
            later(TIMINGS.googleSignupRedirectMs, () => void navigate(paths.dashboard.root, { replace: true }));
          },
          onError: onFailure,
        },
      );
      return;
    }
    signup.mutate(
      { ...base, password: values.password },
      {
        onSuccess: ({ user, token, refreshToken }) => {
          if (invitation) return joined({ user, token, refreshToken });
          const state: TSigninLocationState = { notice: 'signedUp', email: user.email };
          void navigate(paths.signin, { state });
        },
        onError: onFailure,
      },
    );
  };

  const onFormSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (step < 3) {
      // Enter on steps 1 and 2 means Next.
      event.preventDefault();
      void next();
      return;
    }
    void handleSubmit(onValid)(event);
  };

  const fieldError = (name: TField) => {
    const key = messageKey(errors[name]?.message);
    return key ? t(key) : undefined;
  };
  const field = (name: TField) =>
    register(name, {
      onChange: () => {
        clearErrors(name);
        dispatch({ type: 'cleared' });
      },
    });

  const stepKey: TStepKey = step === 1 ? 'about' : step === 2 ? 'company' : fromGoogle ? 'googleSecurity' : 'security';
  // Without the company step, the steps shown are 1 and 2 of 2.
  const totalSteps = joining ? TOTAL_STEPS - 1 : TOTAL_STEPS;
  const shownStep = joining && step === 3 ? 2 : step;
  const progress = joining ? (step === 1 ? PROGRESS[1] : PROGRESS[3]) : PROGRESS[step];
  const busy = signup.isPending || signup.isSuccess;

  return {
    step,
    exiting,
    fadingIn,
    serverError,
    fromGoogle,
    profile,
    stepKey,
    busy,
    stepRef,
    field,
    fieldError,
    locked,
    emailLocked,
    invitation,
    dropInvitation,
    totalSteps,
    shownStep,
    progress,
    back,
    onFormSubmit,
  };
}
