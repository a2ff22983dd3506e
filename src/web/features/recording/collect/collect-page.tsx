import { useEffect, useEffectEvent, useId, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import type { TPublicCollectionLink } from '../../../../contract/api/collection.schema.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { AlertIcon, ArrowRightIcon, MailIcon, SparkleIcon } from '../../../components/icons';
import { Skeleton } from '../../../components/skeleton';
import { useRecordingT } from '../../../i18n/recording-i18n';
import { cn } from '../../../lib/cn';
import { CompanyMark, RecordingFrame } from '../components/recording-frame';
import { RecordingHead } from '../components/recording-head';
import { useFocusOnMount } from '../components/use-focus-on-mount';
import { PublicCallError } from '../public-api';
import type { Refusal } from '../public-api';
import { linkRefusalText, refusalLanguage } from '../refusal-message';
import { confirmCode, getPublicLink, resendCode, startFromLink } from './collect-api';
import { forgetPendingStart, readPendingStart, savePendingStart } from './pending-start';

/** A light check of the address (the server validates it for real): something@something.tld. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

type TState =
  | { kind: 'loading' }
  | { kind: 'closed'; refusal: Refusal }
  | { kind: 'details'; link: TPublicCollectionLink }
  | { kind: 'code'; link: TPublicCollectionLink; token: string; email: string };

const languageOf = (link: TPublicCollectionLink) => (link.language === 'french' ? 'fr' : 'en');

const asRefusal = (error: unknown): Refusal => {
  const failure = error instanceof PublicCallError ? error : new PublicCallError(0, null);
  return { status: failure.status, reason: failure.reason, params: failure.params };
};

/**
 * An open collection link's first step (/c/:slug, issue 30): in the link's language, the customer says
 * who they are (name, position, e-mail; a honeypot field no person sees), confirms their e-mail with a
 * code when the company asks for it, then continues on the recording page like any invited customer
 * (`onStarted` with the request's token). A closed link says so in its language.
 */
export default function CollectPage({ slug, onStarted }: { slug: string; onStarted: (token: string) => void }) {
  const { t, changeLanguage } = useRecordingT();
  const [state, setState] = useState<TState>({ kind: 'loading' });
  const [reloadKey, setReloadKey] = useState(0);
  const speak = useEffectEvent((language: 'en' | 'fr') => changeLanguage(language));

  useEffect(() => {
    const controller = new AbortController();
    let cancelled = false;
    getPublicLink(slug, controller.signal).then(
      async (link) => {
        await speak(languageOf(link));
        if (cancelled) return;
        // A reload at the code step resumes the request already started (and its e-mailed code).
        const pending = readPendingStart(slug);
        setState(pending ? { kind: 'code', link, ...pending } : { kind: 'details', link });
      },
      async (error: unknown) => {
        if (cancelled) return;
        const refusal = asRefusal(error);
        const language = refusalLanguage(refusal);
        if (language) await speak(language);
        if (!cancelled) setState({ kind: 'closed', refusal });
      },
    );
    return () => {
      cancelled = true;
      controller.abort();
    };
  }, [slug, reloadKey]);

  if (state.kind === 'loading') {
    return (
      <RecordingFrame loading>
        <RecordingHead title={t('collectPage.title')} />
        <div className="mx-auto w-full max-w-2xl px-4 pt-8 sm:px-6" aria-busy="true">
          <p className="sr-only" role="status">
            {t('collectPage.loading')}
          </p>
          <Card padding="none" className="space-y-4 px-5 py-6 sm:px-8 sm:py-8">
            <Skeleton className="size-14 rounded-control" />
            <Skeleton className="h-6 w-4/5" />
            <Skeleton className="h-11 w-full" />
            <Skeleton className="h-11 w-full" />
            <Skeleton className="h-12 w-full" />
          </Card>
        </div>
      </RecordingFrame>
    );
  }

  if (state.kind === 'closed') {
    const { refusal } = state;
    const unknown = refusal.status === 404 || refusal.status === 400;
    const retry = refusal.status === 0 || refusal.status >= 500 || (refusal.status === 429 && refusal.reason !== 'collection_link_daily_cap');
    return (
      <RecordingFrame>
        <RecordingHead title={t('collectPage.title')} />
        <div className="mx-auto w-full max-w-xl px-4 pt-10 sm:px-6">
          <Card padding="none" className="animate-fade-in px-6 py-10 text-center" data-testid="collect-closed" data-reason={refusal.reason ?? undefined}>
            <div className="mx-auto flex size-12 items-center justify-center rounded-full bg-gray-100 text-gray-700">
              <AlertIcon className="size-6" />
            </div>
            <h1 className="mt-5 text-xl font-semibold tracking-tight text-gray-950">{unknown ? t('collectPage.unknownTitle') : t('collectPage.closedTitle')}</h1>
            <p className="mt-2 text-base text-gray-600" role="alert">
              {linkRefusalText(refusal, t)}
            </p>
            {retry && (
              <Button className="mt-6" onClick={() => setReloadKey((n) => n + 1)}>
                {t('recording.tryAgain')}
              </Button>
            )}
          </Card>
        </div>
      </RecordingFrame>
    );
  }

  const { link } = state;
  return (
    <RecordingFrame company={link.company} poweredBy={link.powered_by}>
      <RecordingHead title={t('collectPage.pageTitle', { company: link.company.name })} />
      <div className="mx-auto w-full max-w-2xl px-4 pt-6 sm:px-6 sm:pt-8">
        {state.kind === 'details' ? (
          <DetailsStep
            link={link}
            slug={slug}
            onStarted={(token, codeRequired, email) => {
              if (!codeRequired) return onStarted(token);
              savePendingStart(slug, { token, email });
              setState({ kind: 'code', link, token, email });
            }}
            onClosed={(refusal) => setState({ kind: 'closed', refusal })}
          />
        ) : (
          <CodeStep
            token={state.token}
            email={state.email}
            onConfirmed={() => {
              forgetPendingStart(slug);
              onStarted(state.token);
            }}
            onStartAgain={() => {
              forgetPendingStart(slug);
              setState({ kind: 'details', link });
            }}
          />
        )}
      </div>
    </RecordingFrame>
  );
}

function DetailsStep({
  link,
  slug,
  onStarted,
  onClosed,
}: {
  link: TPublicCollectionLink;
  slug: string;
  onStarted: (token: string, codeRequired: boolean, email: string) => void;
  onClosed: (refusal: Refusal) => void;
}) {
  const { t } = useRecordingT();
  const id = useId();
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  const company = link.company.name;
  const [values, setValues] = useState({ name: '', position: '', email: '', website: '' });
  const [errors, setErrors] = useState<{ name?: string; email?: string }>({});
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const set = (field: keyof typeof values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (field === 'name' || field === 'email') setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!values.name.trim()) next.name = t('collectPage.nameRequired');
    if (!EMAIL_PATTERN.test(values.email.trim())) next.email = t('collectPage.emailInvalid');
    setErrors(next);
    if (next.name || next.email) {
      document.getElementById(`${id}-${next.name ? 'name' : 'email'}`)?.focus();
      return;
    }
    setSending(true);
    setFailure(null);
    try {
      const email = values.email.trim();
      const started = await startFromLink(slug, { name: values.name.trim(), position: values.position.trim(), email, website: values.website });
      onStarted(started.token, started.code_required, email);
    } catch (error) {
      const refusal = asRefusal(error);
      setSending(false);
      if (refusal.status === 410 || refusal.status === 404 || refusal.reason === 'collection_link_daily_cap') return onClosed(refusal);
      setFailure(refusal.status === 0 ? t('collectPage.failed') : linkRefusalText(refusal, t));
    }
  };

  return (
    <Card padding="none" className="animate-fade-in px-5 py-6 sm:px-8 sm:py-8" data-testid="collect-details">
      <div className="flex flex-col items-start gap-4">
        <CompanyMark company={link.company} size="lg" />
        <div className="min-w-0">
          <h1 ref={headingRef} tabIndex={-1} className="text-xl font-semibold tracking-tight text-gray-950 outline-none sm:text-2xl">
            {t('collectPage.heading', { company })}
          </h1>
          <p className="mt-2 text-base text-gray-600">{t('collectPage.intro', { company })}</p>
          <p className="mt-1 text-sm text-gray-500">{t('collectPage.questions', { count: link.questions.length })}</p>
        </div>
      </div>

      {link.gift && (
        <div className="mt-6 flex gap-3 rounded-control border border-brand-200 bg-brand-50 px-4 py-3 text-brand-900" data-testid="gift">
          <SparkleIcon className="mt-0.5 size-5 shrink-0 text-brand-700" />
          <div>
            <p className="text-sm font-semibold">{t('collectPage.giftTitle', { company })}</p>
            <p className="mt-0.5 text-base">{link.gift}</p>
          </div>
        </div>
      )}

      <form className="mt-8 space-y-5" onSubmit={submit} noValidate>
        <fieldset className="space-y-4">
          <legend className="text-base font-semibold text-gray-950">{t('collectPage.detailsTitle')}</legend>
          <Field id={`${id}-name`} label={t('collectPage.name')} value={values.name} onChange={set('name')} error={errors.name} autoComplete="name" />
          <Field id={`${id}-position`} label={t('collectPage.position')} value={values.position} onChange={set('position')} autoComplete="organization-title" />
          <Field
            id={`${id}-email`}
            label={t('collectPage.email')}
            type="email"
            inputMode="email"
            value={values.email}
            onChange={set('email')}
            error={errors.email}
            autoComplete="email"
            hint={t('collectPage.emailHint', { company })}
          />
          {/* The honeypot: off screen and out of the tab order; a person never fills it, a form robot does. */}
          <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
            <label htmlFor={`${id}-website`}>{t('collectPage.honeypot')}</label>
            <input id={`${id}-website`} name="website" tabIndex={-1} autoComplete="off" value={values.website} onChange={(e) => set('website')(e.target.value)} />
          </div>
        </fieldset>
        {failure && (
          <Alert tone="error" data-testid="collect-failure">
            {failure}
          </Alert>
        )}
        <Button type="submit" size="lg" fullWidth loading={sending} data-testid="collect-continue" trailingIcon={<ArrowRightIcon className="size-5" />}>
          {sending ? t('collectPage.starting') : t('collectPage.continue')}
        </Button>
      </form>
    </Card>
  );
}

function CodeStep({ token, email, onConfirmed, onStartAgain }: { token: string; email: string; onConfirmed: () => void; onStartAgain: () => void }) {
  const { t } = useRecordingT();
  const id = useId();
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<'confirm' | 'resend' | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) {
      setError(t('collectPage.codeInvalid'));
      return;
    }
    setBusy('confirm');
    setError(null);
    try {
      await confirmCode(token, digits);
      onConfirmed();
    } catch (failure) {
      setBusy(null);
      const refusal = asRefusal(failure);
      setError(refusal.status === 0 ? t('collectPage.failed') : linkRefusalText(refusal, t));
    }
  };

  const resend = async () => {
    setBusy('resend');
    setError(null);
    setNotice(null);
    try {
      await resendCode(token);
      setCode('');
      setNotice(t('collectPage.codeResent'));
    } catch (failure) {
      const refusal = asRefusal(failure);
      setError(refusal.status === 0 ? t('collectPage.failed') : linkRefusalText(refusal, t));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card padding="none" className="animate-fade-in px-5 py-6 sm:px-8 sm:py-8" data-testid="collect-code">
      <div className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <MailIcon className="size-6" />
      </div>
      <h1 ref={headingRef} tabIndex={-1} className="mt-4 text-xl font-semibold tracking-tight text-gray-950 outline-none sm:text-2xl">
        {t('collectPage.codeHeading')}
      </h1>
      <p className="mt-2 text-base text-gray-600">{t('collectPage.codeIntro', { email })}</p>
      <form className="mt-6 space-y-4" onSubmit={submit} noValidate>
        <Field
          id={`${id}-code`}
          label={t('collectPage.code')}
          value={code}
          onChange={(value) => {
            setCode(value.replace(/[^\d\s]/g, '').slice(0, 7));
            setError(null);
          }}
          error={error ?? undefined}
          autoComplete="one-time-code"
          inputMode="numeric"
          className="font-mono text-lg tracking-[0.4em]"
        />
        {notice && (
          <Alert tone="success" data-testid="code-resent">
            {notice}
          </Alert>
        )}
        <div className="flex flex-col gap-3 sm:flex-row-reverse">
          <Button type="submit" size="lg" fullWidth loading={busy === 'confirm'} data-testid="code-confirm">
            {t('collectPage.codeConfirm')}
          </Button>
          <Button type="button" variant="secondary" size="lg" fullWidth loading={busy === 'resend'} onClick={() => void resend()}>
            {t('collectPage.codeResend')}
          </Button>
        </div>
      </form>
      <p className="mt-5 text-center text-sm text-gray-600">
        <button type="button" className="font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600" onClick={onStartAgain} data-testid="code-start-again">
          {t('collectPage.codeStartAgain')}
        </button>
      </p>
    </Card>
  );
}

interface FieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: ReactNode;
  type?: string;
  inputMode?: 'email' | 'numeric' | 'text';
  autoComplete?: string;
  className?: string;
}

function Field({ id, label, value, onChange, error, hint, type = 'text', inputMode, autoComplete, className }: FieldProps) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      <input
        id={id}
        type={type}
        value={value}
        inputMode={inputMode}
        autoComplete={autoComplete}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={cn(
          'h-11 w-full rounded-control border border-gray-300 bg-white px-3 text-base text-gray-900 sm:h-10 sm:text-sm',
          'placeholder:text-gray-400 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600',
          error && 'border-error-600 focus-visible:outline-error-600',
          className,
        )}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-gray-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-error-700" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
