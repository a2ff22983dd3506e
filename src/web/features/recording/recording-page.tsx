import { lazy, startTransition, Suspense, useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import type { TPublicQuestion, TSaveTestimonialResponse, TValidateTokenResponse } from '../../../contract/api/public.schema.js';
import { CURRENT_CONSENT_VERSION } from '../../../contract/consent.js';
import { RECORDING } from '../../../contract/constants.js';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { AlertIcon, CheckCircleIcon } from '../../components/icons';
import { Skeleton } from '../../components/skeleton';
import { Spinner } from '../../components/spinner';
import { useRecordingT } from '../../i18n/recording-i18n';
import { InformationStep } from './components/information-step';
import type { Take } from './components/question-recorder-state';
import { RecordingFrame } from './components/recording-frame';
import { RecordingHead } from './components/recording-head';
import { StepIndicator } from './components/step-indicator';
import type { TVisibleStep } from './components/step-indicator';
import { clampFontSize, NOTES_FONT } from './components/teleprompter';
import { extensionFor } from './media-support';
import { buildSaveForm, PublicCallError, reportProgress, validateToken } from './public-api';
import type { Refusal } from './public-api';
import { openRecordingStore, requestPersistentStorage } from './recording-store';
import type { RecordingStore, StoredAnswer, StoredSession } from './recording-store';
import { isAlreadySent, linkRefusalText, refusalLanguage, refusedQuestionIndex } from './refusal-message';
import { useMediaStream } from './use-media-stream';
import { useSubmission } from './use-submission';

/**
 * The steps after the first screen, a chunk of their own (components/later-steps.ts): asked for as
 * soon as the link is read, so they are there when the customer has consented.
 */
const loadLaterSteps = () => import('./components/later-steps');
const DeviceCheckStep = lazy(() => loadLaterSteps().then((m) => ({ default: m.DeviceCheckStep })));
const QuestionRecorder = lazy(() => loadLaterSteps().then((m) => ({ default: m.QuestionRecorder })));
const CompleteStep = lazy(() => loadLaterSteps().then((m) => ({ default: m.CompleteStep })));
const ThankYou = lazy(() => loadLaterSteps().then((m) => ({ default: m.ThankYou })));

/** While a later step's code arrives (rarely seen: it is asked for when the link is read). */
function StepLoading({ label }: { label: string }) {
  return (
    <div className="flex justify-center px-4 pt-16 text-gray-500" role="status" data-testid="step-loading">
      <Spinner className="size-6" />
      <span className="sr-only">{label}</span>
    </div>
  );
}

type TLoad = { kind: 'loading' } | { kind: 'error'; refusal: Refusal } | { kind: 'ready' };

/** How long the 'done' message shows before the thank-you screen replaces the page. */
const DONE_PAUSE_MS = 1200;

function languageOf(context: TValidateTokenResponse): 'en' | 'fr' {
  return context.testimonial.language === 'french' ? 'fr' : 'en';
}

function newSession(token: string, context: TValidateTokenResponse): StoredSession {
  return {
    token,
    testimonialId: context.testimonial.id,
    context,
    step: 'information',
    questionIndex: 0,
    name: context.testimonial.customer_name,
    title: context.testimonial.customer_position ?? '',
    consentAccepted: false,
    consentVersion: CURRENT_CONSENT_VERSION,
    notes: {},
    notesVisible: false,
    notesFontSize: NOTES_FONT.default,
    cameraId: null,
    microphoneId: null,
    updatedAt: new Date().toISOString(),
  };
}

/**
 * Where a customer resumes: the stored session of this link (if it belongs to the same request), its
 * answers to questions still asked, and a step that is consistent with them.
 */
function resume(
  token: string,
  context: TValidateTokenResponse,
  stored: { session: StoredSession | null; answers: StoredAnswer[] },
  alreadySent: boolean,
): { session: StoredSession; answers: Map<string, StoredAnswer> } {
  const same = stored.session?.testimonialId === context.testimonial.id ? stored.session : null;
  const asked = new Set(context.questions.map((q) => q.id));
  const answers = new Map(same ? stored.answers.filter((a) => asked.has(a.questionId)).map((a) => [a.questionId, a]) : []);
  const session: StoredSession = same ? { ...same, context } : newSession(token, context);
  const total = context.questions.length;
  const firstMissing = context.questions.findIndex((q) => !answers.has(q.id));
  if (alreadySent) return { session: { ...session, step: 'complete' }, answers };
  if (!session.consentAccepted && session.step !== 'information') session.step = 'information';
  if (session.step === 'complete' && firstMissing !== -1) {
    session.step = 'recording';
    session.questionIndex = firstMissing;
  }
  session.questionIndex = Math.min(Math.max(0, session.questionIndex), Math.max(0, total - 1));
  return { session, answers };
}

/**
 * The customer's recording page (/testimonial/submit/:token); never indexed. Its own entry
 * (src/web/recording.tsx) reads the token from the address and renders it, with no router.
 */
export function RecordingPage({ token }: { token: string }) {
  const { t, changeLanguage } = useRecordingT();
  const [load, setLoad] = useState<TLoad>({ kind: 'loading' });
  const [reloadKey, setReloadKey] = useState(0);
  const [session, setSession] = useState<StoredSession | null>(null);
  const [answers, setAnswers] = useState<Map<string, StoredAnswer>>(() => new Map());
  const [persistent, setPersistent] = useState(true);
  const [storageWarning, setStorageWarning] = useState(false);
  const [resumed, setResumed] = useState(false);
  const [finished, setFinished] = useState<{ name: string; company: string; pageUrl: string | null } | null>(null);
  /** The file picker is open on a phone: the camera is let go meanwhile, for the camera app it offers. */
  const [pickingFile, setPickingFile] = useState(false);
  const storeRef = useRef<RecordingStore | null>(null);
  const sessionRef = useRef<StoredSession | null>(null);
  const answersRef = useRef(answers);

  /* ------------------------------------------------------------ loading and resuming */

  // Read from an effect event: switching the language does not run the loading effect (and its
  // validate call) again.
  const speak = useEffectEvent((language: 'en' | 'fr') => changeLanguage(language));

  useEffect(() => {
    let cancelled = false;
    const controller = new AbortController();
    const run = async () => {
      const store = storeRef.current ?? (await openRecordingStore());
      storeRef.current = store;
      const stored = await store.load(token).catch(() => ({ session: null, answers: [] as StoredAnswer[] }));
      let context: TValidateTokenResponse;
      let alreadySent = false;
      try {
        context = await validateToken(token, controller.signal);
      } catch (error) {
        if (cancelled) return;
        const failure = error instanceof PublicCallError ? error : new PublicCallError(0, null);
        const cached = stored.session?.context;
        const allStored = !!cached && cached.questions.every((q) => stored.answers.some((a) => a.questionId === q.id));
        if (cached && failure.status === 0) {
          // Offline: everything needed is on the device.
          context = cached;
        } else if (cached && allStored && isAlreadySent(failure)) {
          // Completed, but this device never heard back: sending the same answers again gets the
          // server's first answer (it recognises them), then the thank-you screen.
          context = cached;
          alreadySent = true;
        } else {
          // A refused link speaks the request's language too: the server names it for an expired or
          // answered link, this device may know it from an earlier visit, else the browser's stays.
          const language = refusalLanguage(failure) ?? (cached ? languageOf(cached) : null);
          if (language) await speak(language);
          if (cancelled) return;
          setLoad({ kind: 'error', refusal: { status: failure.status, reason: failure.reason, params: failure.params } });
          return;
        }
      }
      if (cancelled) return;
      const next = resume(token, context, stored, alreadySent);
      await speak(languageOf(context));
      if (cancelled) return;
      sessionRef.current = next.session;
      answersRef.current = next.answers;
      // The first screen renders in slices, yielding to the browser between them: a slow phone stays
      // responsive while it is built (no long task; docs/decisions/150).
      startTransition(() => {
        setSession(next.session);
        setAnswers(next.answers);
        setPersistent(store.persistent);
        setResumed(next.answers.size > 0 && next.session.step === 'recording');
        setLoad({ kind: 'ready' });
      });
      void store.saveSession(next.session).catch(() => setStorageWarning(true));
    };
    void run();
    return () => {
      cancelled = true;
      controller.abort();
    };
  }, [token, reloadKey]);

  /* ------------------------------------------------------------ session updates */

  const update = useCallback((patch: Partial<StoredSession>) => {
    const current = sessionRef.current;
    if (!current) return;
    const next = { ...current, ...patch, updatedAt: new Date().toISOString() };
    sessionRef.current = next;
    setSession(next);
    void storeRef.current?.saveSession(next).catch(() => setStorageWarning(true));
  }, []);

  const step = session?.step ?? 'information';
  const questionIndex = session?.questionIndex ?? 0;
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [step, questionIndex]);

  // The link is read and its first screen shown: the later steps' code comes meanwhile. A failure
  // here is tried again when a step needs it (and then shows the page's error screen).
  const ready = load.kind === 'ready';
  useEffect(() => {
    if (ready) loadLaterSteps().catch(() => undefined);
  }, [ready]);

  // Unsent answers: ask before the page is left (they are kept on the device, but not yet sent).
  const unsent = answers.size > 0 && !finished;
  useEffect(() => {
    if (!unsent) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = t('recording.leaveWarning');
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsent, t]);

  /* ------------------------------------------------------------ devices */

  const media = useMediaStream({
    enabled: load.kind === 'ready' && !finished && !pickingFile && (step === 'devices' || step === 'recording'),
    cameraId: session?.cameraId ?? null,
    microphoneId: session?.microphoneId ?? null,
  });

  /* ------------------------------------------------------------ answers */

  const acceptAnswer = useCallback(
    async (question: TPublicQuestion, index: number, take: Take) => {
      const current = sessionRef.current;
      if (!current) return;
      const questions = current.context.questions;
      const answer: StoredAnswer = {
        token: current.token,
        questionId: question.id,
        blob: take.blob,
        mimeType: take.mimeType,
        bgColor: current.context.testimonial.background_color || RECORDING.defaultBackgroundColor,
        durationMs: Math.round(take.durationMs),
        recordedAt: new Date().toISOString(),
        source: take.source ?? 'camera',
        aspect: take.aspect ?? null,
      };
      const nextAnswers = new Map(answersRef.current).set(question.id, answer);
      const firstMissing = questions.findIndex((q) => !nextAnswers.has(q.id));
      const nextIndex = index + 1;
      const next: StoredSession = {
        ...current,
        step: nextIndex < questions.length || firstMissing !== -1 ? 'recording' : 'complete',
        questionIndex: nextIndex < questions.length ? nextIndex : Math.max(0, firstMissing),
        updatedAt: new Date().toISOString(),
      };
      // The company's funnel hears of the first answer (fire and forget).
      if (answersRef.current.size === 0) reportProgress(current.token, 'first_answer');
      // The answer is on the device (or, failing that, in memory) before the next question starts.
      try {
        await storeRef.current?.saveAnswer(answer, next);
        if (answersRef.current.size === 0) requestPersistentStorage();
      } catch {
        setStorageWarning(true);
      }
      answersRef.current = nextAnswers;
      sessionRef.current = next;
      setAnswers(nextAnswers);
      setSession(next);
      setResumed(false);
    },
    [],
  );

  /* ------------------------------------------------------------ submission */

  const buildForm = useCallback(() => {
    const current = sessionRef.current;
    if (!current) return null;
    const ordered = current.context.questions
      .map((q) => answersRef.current.get(q.id))
      .filter((a): a is StoredAnswer => !!a);
    if (ordered.length === 0) return null;
    return buildSaveForm({
      token: current.token,
      testimonialId: current.testimonialId,
      name: current.name.trim(),
      title: current.title.trim(),
      consentVersion: current.consentVersion,
      answers: ordered.map((a) => ({
        questionId: a.questionId,
        bgColor: a.bgColor,
        blob: a.blob,
        extension: extensionFor(a.mimeType),
      })),
    });
  }, []);

  const onSubmitted = useCallback((response: TSaveTestimonialResponse) => {
    const current = sessionRef.current;
    if (!current) return;
    // Only now, with the server's confirmation, are the answers removed from the device.
    void storeRef.current?.clear(current.token).catch(() => undefined);
    setTimeout(() => {
      // A customer without e-mail gets no receipt: their private page's address comes with the answer (issue 29).
      setFinished({ name: current.name.trim(), company: current.context.testimonial.company.name, pageUrl: response.customerPageUrl ?? null });
    }, DONE_PAUSE_MS);
  }, []);

  const submission = useSubmission({
    enabled: load.kind === 'ready' && step === 'complete' && answers.size > 0 && !finished,
    buildForm,
    onSuccess: onSubmitted,
  });

  /* ------------------------------------------------------------ rendering */

  if (load.kind === 'loading') {
    return (
      <RecordingFrame loading>
        <RecordingHead title={t('recording.title')} description={t('recording.description')} />
        <div className="mx-auto w-full max-w-2xl px-4 pt-8 sm:px-6" aria-busy="true">
          <p className="sr-only" role="status">
            {t('recording.loading')}
          </p>
          <Card padding="none" className="space-y-4 px-5 py-6 sm:px-8 sm:py-8">
            <div className="flex items-center gap-4">
              <Skeleton className="size-14 rounded-control" />
              <div className="flex-1 space-y-2">
                <Skeleton className="h-6 w-4/5" />
                <Skeleton className="h-4 w-3/5" />
              </div>
            </div>
            <Skeleton className="h-24 w-full" />
            <Skeleton className="h-11 w-full" />
            <Skeleton className="h-12 w-full" />
          </Card>
        </div>
      </RecordingFrame>
    );
  }

  if (load.kind === 'error') {
    const { status } = load.refusal;
    const alreadyDone = isAlreadySent(load.refusal);
    const message = linkRefusalText(load.refusal, t);
    return (
      <RecordingFrame>
        <RecordingHead title={t('recording.title')} description={t('recording.description')} />
        <div className="mx-auto w-full max-w-xl px-4 pt-10 sm:px-6">
          <Card padding="none" className="animate-fade-in px-6 py-10 text-center" data-testid="load-error" data-status={status} data-reason={load.refusal.reason ?? undefined}>
            <div
              className={
                alreadyDone
                  ? 'mx-auto flex size-12 items-center justify-center rounded-full bg-completed-100 text-completed-700'
                  : 'mx-auto flex size-12 items-center justify-center rounded-full bg-error-50 text-error-700'
              }
            >
              {alreadyDone ? <CheckCircleIcon className="size-6" /> : <AlertIcon className="size-6" />}
            </div>
            <h1 className="mt-5 text-xl font-semibold tracking-tight text-gray-950">
              {alreadyDone ? t('recording.alreadySentTitle') : t('recording.linkErrorTitle')}
            </h1>
            <p className="mt-2 text-base text-gray-600" role={alreadyDone ? undefined : 'alert'}>
              {message}
            </p>
            {(status === 0 || status === 408 || status === 429 || status >= 500) && (
              <Button className="mt-6" onClick={() => setReloadKey((n) => n + 1)}>
                {t('recording.tryAgain')}
              </Button>
            )}
          </Card>
        </div>
      </RecordingFrame>
    );
  }

  if (!session) return null;
  const { context } = session;
  const company = context.testimonial.company;
  const seo = (
    <RecordingHead title={t('recording.pageTitle', { company: company.name })} description={t('recording.description')} />
  );

  if (finished) {
    return (
      <RecordingFrame company={company} poweredBy={context.powered_by}>
        {seo}
        <Suspense fallback={<StepLoading label={t('recording.loading')} />}>
          <ThankYou name={finished.name} company={finished.company} pageUrl={finished.pageUrl} />
        </Suspense>
      </RecordingFrame>
    );
  }

  const visibleStep: TVisibleStep = step === 'information' ? 'information' : step === 'complete' ? 'complete' : 'recording';
  const questions = context.questions;
  const question = questions[questionIndex];
  const existing = question ? answers.get(question.id) : undefined;
  const warnings = (
    <>
      {!persistent && (
        <Alert tone="warning" className="mb-4" data-testid="memory-only">
          {t('recording.memoryOnly')}
        </Alert>
      )}
      {storageWarning && persistent && (
        <Alert tone="warning" className="mb-4" data-testid="storage-warning">
          {t('recording.storageFailed')}
        </Alert>
      )}
    </>
  );

  return (
    <RecordingFrame company={company} poweredBy={context.powered_by}>
      {seo}
      <StepIndicator current={visibleStep} width={step === 'information' || step === 'complete' ? 'sm' : 'md'} />
      {step !== 'recording' && (!persistent || storageWarning) && (
        <div className="mx-auto w-full max-w-2xl px-4 pt-4 sm:px-6">{warnings}</div>
      )}

      {step === 'information' && (
        <InformationStep
          context={context}
          lang={languageOf(context)}
          name={session.name}
          title={session.title}
          consentAccepted={session.consentAccepted}
          onContinue={({ name, title, consentVersion }) =>
            update({ name, title, consentVersion, consentAccepted: true, step: 'devices' })
          }
        />
      )}

      <Suspense fallback={<StepLoading label={t('recording.loading')} />}>
        {step === 'devices' && (
          <DeviceCheckStep
            media={media}
            onChooseCamera={(cameraId) => update({ cameraId })}
            onChooseMicrophone={(microphoneId) => update({ microphoneId })}
            onBack={() => update({ step: 'information' })}
            onContinue={() => {
              if (sessionRef.current) reportProgress(sessionRef.current.token, 'device_ok');
              update({ step: 'recording' });
            }}
            onUseFile={() => update({ step: 'recording' })}
          />
        )}

        {step === 'recording' && question && (
          <QuestionRecorder
            key={question.id}
            question={question}
            index={questionIndex}
            total={questions.length}
            answered={questions.map((q) => answers.has(q.id))}
            bgColor={context.testimonial.background_color || RECORDING.defaultBackgroundColor}
            media={media}
            existing={
              existing
                ? { blob: existing.blob, mimeType: existing.mimeType, durationMs: existing.durationMs, source: existing.source ?? 'camera', aspect: existing.aspect ?? null }
                : null
            }
            notes={session.notes[question.id] ?? ''}
            notesVisible={session.notesVisible}
            notesFontSize={clampFontSize(session.notesFontSize)}
            onNotesChange={(text) => update({ notes: { ...sessionRef.current?.notes, [question.id]: text } })}
            onNotesVisibleChange={(notesVisible) => update({ notesVisible })}
            onNotesFontSizeChange={(notesFontSize) => update({ notesFontSize })}
            onAccept={(take) => acceptAnswer(question, questionIndex, take)}
            onPickingFile={setPickingFile}
            banner={
              <>
                {warnings}
                {resumed && (
                  <Alert tone="info" className="mb-4" data-testid="resumed">
                    {t('recording.resumed')}
                  </Alert>
                )}
              </>
            }
          />
        )}

        {step === 'complete' && (
          <CompleteStep
            company={company.name}
            answerCount={answers.size}
            state={submission.state}
            onRetryNow={submission.retryNow}
            onRecordAgain={() => update({ step: 'recording', questionIndex: refusedQuestionIndex(submission.state.phase === 'failed' ? submission.state.refusal : null, questions, (id) => answers.has(id)) })}
          />
        )}
      </Suspense>
    </RecordingFrame>
  );
}

