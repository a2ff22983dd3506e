import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useRecordingT } from '../../../i18n/recording-i18n';
import type { TValidateTokenResponse } from '../../../../contract/api/public.schema.js';
import { consentText, CURRENT_CONSENT_VERSION } from '../../../../contract/consent.js';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { ArrowRightIcon, LockIcon, SparkleIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';
import { CompanyMark } from './recording-frame';
import { useFocusOnMount } from './use-focus-on-mount';

export interface InformationStepProps {
  context: TValidateTokenResponse;
  lang: 'en' | 'fr';
  name: string;
  title: string;
  consentAccepted: boolean;
  onContinue: (values: { name: string; title: string; consentVersion: string }) => void;
}

/**
 * Step 1: who asks and what happens next, the customer's prefilled and locked name and position, and
 * the image-rights authorisation (the exact text of the current consent version, which the server
 * stores as shown). Continue needs a name (spec §5 message) and the accepted authorisation.
 */
export function InformationStep({ context, lang, name: savedName, title, consentAccepted, onContinue }: InformationStepProps) {
  const { t } = useRecordingT();
  const { testimonial, questions } = context;
  const company = testimonial.company.name;
  const prefilledName = testimonial.customer_name.trim();
  const position = (title || testimonial.customer_position || '').trim();
  const [name, setName] = useState(prefilledName || savedName);
  const [accepted, setAccepted] = useState(consentAccepted);
  const [errors, setErrors] = useState<{ name?: string; consent?: string }>({});
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  const consentId = useId();
  const nameId = useId();
  const text = consentText(CURRENT_CONSENT_VERSION, lang, company);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!name.trim()) next.name = t('recording.info.nameRequired');
    if (!accepted) next.consent = t('recording.info.consentRequired');
    setErrors(next);
    if (next.name) {
      document.getElementById(nameId)?.focus();
      return;
    }
    if (next.consent) {
      document.getElementById(consentId)?.focus();
      return;
    }
    onContinue({ name: name.trim(), title: position, consentVersion: CURRENT_CONSENT_VERSION });
  };

  return (
    <div className="mx-auto w-full max-w-2xl px-4 pt-6 sm:px-6 sm:pt-8">
      <Card padding="none" className="animate-fade-in px-5 py-6 sm:px-8 sm:py-8">
        {/* The mark above the heading: a wide wordmark keeps its width without squeezing the heading (issue 27). */}
        <div className="flex flex-col items-start gap-4">
          <CompanyMark company={testimonial.company} size="lg" />
          <div className="min-w-0">
            <h1 ref={headingRef} tabIndex={-1} className="text-xl font-semibold tracking-tight text-gray-950 outline-none sm:text-2xl">
              {t('recording.info.heading', { company })}
            </h1>
            <p className="mt-2 text-base text-gray-600">{t('recording.info.intro', { name: prefilledName || name })}</p>
          </div>
        </div>

        {testimonial.gift && (
          <div className="mt-6 flex gap-3 rounded-control border border-brand-200 bg-brand-50 px-4 py-3 text-brand-900" data-testid="gift">
            <SparkleIcon className="mt-0.5 size-5 shrink-0 text-brand-700" />
            <div>
              <p className="text-sm font-semibold">{t('recording.info.giftTitle', { company })}</p>
              <p className="mt-0.5 text-base">{testimonial.gift}</p>
            </div>
          </div>
        )}

        <section className="mt-6" aria-labelledby={`${nameId}-next`}>
          <h2 id={`${nameId}-next`} className="text-base font-semibold text-gray-950">
            {t('recording.info.nextTitle')}
          </h2>
          <ol className="mt-3 space-y-3">
            {[
              t('recording.info.nextDevices'),
              t('recording.info.nextQuestions', { count: questions.length }),
              t('recording.info.nextSend', { company }),
            ].map((line, i) => (
              <li key={i} className="flex gap-3 text-base text-gray-700">
                <span
                  aria-hidden="true"
                  className="flex size-6 shrink-0 items-center justify-center rounded-full bg-gray-100 text-xs font-semibold text-gray-700"
                >
                  {i + 1}
                </span>
                <span>{line}</span>
              </li>
            ))}
          </ol>
        </section>

        <form className="mt-8 space-y-6" onSubmit={submit} noValidate>
          <fieldset className="space-y-4">
            <legend className="text-base font-semibold text-gray-950">{t('recording.info.detailsTitle')}</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <LockedField
                id={nameId}
                label={t('recording.info.name')}
                value={name}
                locked={!!prefilledName}
                onChange={(value) => {
                  setName(value);
                  if (errors.name) setErrors((e) => ({ ...e, name: undefined }));
                }}
                error={errors.name}
                autoComplete="name"
              />
              <LockedField
                id={`${nameId}-position`}
                label={t('recording.info.position')}
                value={position}
                placeholder={t('recording.info.positionEmpty')}
                locked
              />
            </div>
            <p className="flex items-center gap-1.5 text-sm text-gray-500">
              <LockIcon className="size-4 shrink-0" />
              {t('recording.info.lockedHint', { company })}
            </p>
          </fieldset>

          <fieldset>
            <legend className="text-base font-semibold text-gray-950">{t('recording.info.consentTitle')}</legend>
            <p id={`${consentId}-text`} className="mt-3 rounded-control border border-gray-200 bg-gray-50 px-4 py-3 text-sm leading-relaxed text-gray-700" data-testid="consent-text">
              {text}
            </p>
            <label
              htmlFor={consentId}
              className={cn(
                'mt-3 flex cursor-pointer items-start gap-3 rounded-control border px-4 py-3 transition-colors',
                accepted ? 'border-brand-600 bg-brand-50' : errors.consent ? 'border-error-600' : 'border-gray-300 hover:border-gray-400',
              )}
            >
              <input
                id={consentId}
                type="checkbox"
                data-testid="consent"
                checked={accepted}
                onChange={(e) => {
                  setAccepted(e.target.checked);
                  if (errors.consent) setErrors((x) => ({ ...x, consent: undefined }));
                }}
                aria-describedby={`${consentId}-text${errors.consent ? ` ${consentId}-error` : ''}`}
                aria-invalid={errors.consent ? true : undefined}
                className="mt-0.5 size-5 shrink-0 cursor-pointer accent-brand-700"
              />
              <span className="text-base font-medium text-gray-900 select-none">{t('recording.info.consentAccept')}</span>
            </label>
            {errors.consent && (
              <p id={`${consentId}-error`} className="mt-2 text-sm text-error-700" role="alert">
                {errors.consent}
              </p>
            )}
          </fieldset>

          <Button
            type="submit"
            size="lg"
            fullWidth
            data-testid="continue"
            trailingIcon={<ArrowRightIcon className="size-5" />}
          >
            {t('recording.info.continue')}
          </Button>
        </form>
      </Card>
    </div>
  );
}

interface LockedFieldProps {
  id: string;
  label: string;
  value: string;
  locked: boolean;
  placeholder?: string;
  error?: string | undefined;
  autoComplete?: string;
  onChange?: (value: string) => void;
}

/** A prefilled field: read-only with a lock when the company provided it, editable otherwise. */
function LockedField({ id, label, value, locked, placeholder, error, autoComplete, onChange }: LockedFieldProps) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          value={value}
          readOnly={locked}
          placeholder={placeholder}
          autoComplete={autoComplete}
          onChange={(e) => onChange?.(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={cn(
            'h-11 w-full rounded-control border px-3 text-base text-gray-900 sm:h-10 sm:text-sm',
            'placeholder:text-gray-400 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600',
            locked ? 'cursor-default border-gray-200 bg-gray-50 pr-9 text-gray-700' : 'border-gray-300 bg-white',
            error && 'border-error-600 focus-visible:outline-error-600',
          )}
        />
        {locked && <LockIcon className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-gray-400" />}
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm text-error-700" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
