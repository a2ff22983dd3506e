import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import type { TRenderState } from '../../../../contract/api/studio.schema.js';
import type { TTestimonialRequest, TTestimonialResponse } from '../../../../contract/api/testimonials.schema.js';
import { Alert } from '../../../components/alert';
import { Badge } from '../../../components/badge';
import { Button, ButtonLink } from '../../../components/button';
import { Card } from '../../../components/card';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';
import { ArrowLeftIcon, CloseIcon, CoinsIcon, CompassIcon, LockIcon, MailIcon, VideoIcon } from '../../../components/icons';
import { ProgressBar } from '../../../components/progress-bar';
import { Seo } from '../../../components/seo';
import { Skeleton } from '../../../components/skeleton';
import { useLanguage } from '../../../i18n/use-language';
import { isApiError } from '../../../lib/api-client';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { useAuth } from '../../../lib/auth-context';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useGenerateIntroMutation } from '../api/generate-intro';
import { markRenderStarted, PREPARING_POLL_MS, RENDER_POLL_MS, testimonialKeys, useTestimonial } from '../api/get-testimonial';
import type { TRenderTarget } from '../api/get-testimonial';
import { useMergeMutation } from '../api/merge';
import { isNoCreditsError, usePayTestimonialMutation } from '../api/pay-testimonial';
import { useRegenerateMutation } from '../api/regenerate';
import { useRegenerateMergedMutation } from '../api/regenerate-merged';
import { ExportDialog } from '../export/export-dialog';
import { MergedTranscriptionReviewDialog } from '../transcription/merged-transcription-review-dialog';
import { TranscriptionReviewDialog } from '../transcription/transcription-review-dialog';
import { MergedCard, MergePrompt } from './merged-card';
import { ResponseCard } from './response-card';
import { ActionConfirmDialog, ProcessingModal, VideoModal } from './studio-dialogs';
import type { TStudioAction } from './studio-dialogs';
import { DownloadIcon, ExternalIcon } from '../../../components/icons';
import { anyJobRunning, displayedProgress, isPreparing, isRunning, mergedActions, runningJob } from './studio-state';
import { useSinglePlayback } from './video-player';

/** Spec §4, §9: success banners disappear after 10 s. */
export const BANNER_MS = 10_000;

/** A render started from this page, followed until it is ready or has failed. */
interface Watch {
  action: TStudioAction;
  target: TRenderTarget;
  /** Reads of the detail from before this instant may predate the job: they are not conclusive. */
  since: number;
  dismissed: boolean;
}

type TBanner = { id: number; tone: 'success' | 'error'; title: string; message?: string; buyLink?: boolean };

type TDialog =
  | { kind: 'intro' | 'regenerate' | 'subtitles' | 'view'; response: TTestimonialResponse }
  | { kind: 'export'; response: TTestimonialResponse | null }
  | { kind: 'merge' | 'regenerate_merged' | 'merged_subtitles' | 'pay' };

/** Which §8 message a failed start call shows. */
const START_FAILED = {
  intro: 'testimonialDetail.errors.intro',
  regenerate: 'testimonialDetail.errors.regenerate',
  merge: 'testimonialDetail.errors.merge',
  regenerate_merged: 'testimonialDetail.errors.regenerateMerged',
} as const;

function targetState(testimonial: TTestimonialRequest, target: TRenderTarget): TRenderState | null {
  if (target.kind === 'testimonial') return testimonial.render_state ?? null;
  return testimonial.testimonial_responses.find((response) => response.id === target.id)?.render_state ?? null;
}

/**
 * The export behind the 'export ready' banner. The exportUrl of the address (spec: export=ready and
 * exportUrl) only says which export: anyone can craft such a link, so the button never opens that
 * value. It opens the export address the API gives for this testimonial (its own or one of its
 * answers' vertical videos) with the same origin and path; any other value shows no banner at all.
 */
function exportFromApi(testimonial: TTestimonialRequest | null, value: string | null): string | null {
  if (!testimonial || !value) return null;
  const parse = (address: string) => {
    try {
      const url = new URL(address, window.location.origin);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
    } catch {
      return null;
    }
  };
  const wanted = parse(value);
  if (!wanted) return null;
  const exports = [testimonial, ...testimonial.testimonial_responses].flatMap((owner) => [owner.short_video_url, owner.short_video_url_original]);
  for (const address of exports) {
    const known = address ? parse(address) : null;
    if (known && known.origin === wanted.origin && known.pathname === wanted.pathname) return known.href;
  }
  return null;
}

function BackLink() {
  const { t } = useTranslation();
  return (
    <Link
      to={paths.dashboard.testimonials}
      data-testid="testimonial-detail-back"
      className="inline-flex items-center gap-1.5 text-sm font-medium text-gray-600 hover:text-gray-900"
    >
      <ArrowLeftIcon className="size-4" />
      {t('testimonialDetail.back')}
    </Link>
  );
}

function StatusBadge({ status }: { status: TTestimonialRequest['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge tone={status} dot data-testid="testimonial-status" data-status={status}>
      {t(`requests.status.${status}`)}
    </Badge>
  );
}

function Header({ testimonial, actions }: { testimonial: TTestimonialRequest; actions?: ReactNode }) {
  const { t } = useTranslation();
  const submitted = testimonial.status === 'completed' ? (testimonial.submitted_at ?? testimonial.updated_at) : null;
  return (
    <header className="mb-6 sm:mb-8" data-testid="testimonial-header">
      <div className="mb-3">
        <BackLink />
      </div>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <h1 className="text-xl font-semibold tracking-tight break-words text-gray-950" data-testid="testimonial-title">
              {testimonial.customer_name}
            </h1>
            <StatusBadge status={testimonial.status} />
          </div>
          {testimonial.customer_position && (
            <p className="mt-1 text-sm text-gray-700" data-testid="testimonial-position">
              {testimonial.customer_position}
            </p>
          )}
          <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-2 text-sm">
            <div className="flex min-w-0 items-center gap-1.5">
              <dt className="sr-only">{t('testimonialDetail.header.email')}</dt>
              <MailIcon className="size-4 shrink-0 text-gray-500" />
              <dd className="min-w-0 truncate">
                <a
                  href={`mailto:${testimonial.customer_email}`}
                  className="text-gray-700 hover:text-gray-950 hover:underline"
                  data-testid="testimonial-email"
                >
                  {testimonial.customer_email}
                </a>
              </dd>
            </div>
            <div className="flex items-center gap-1.5 text-gray-700">
              <dt className="text-gray-500">
                {t(submitted ? 'testimonialDetail.header.submitted' : 'testimonialDetail.header.requested')}
              </dt>
              <dd className="tabular-nums" data-testid="testimonial-date">
                {formatDate(submitted ?? testimonial.created_at)}
              </dd>
            </div>
            {testimonial.testimonial_responses.length > 0 && (
              <div className="flex items-center gap-1.5 text-gray-700">
                <dt className="sr-only">{t('testimonialDetail.header.answers')}</dt>
                <VideoIcon className="size-4 shrink-0 text-gray-500" />
                <dd>{t('testimonialDetail.header.answerCount', { count: testimonial.testimonial_responses.length })}</dd>
              </div>
            )}
          </dl>
        </div>
        {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
      </div>
    </header>
  );
}

function LoadingSkeleton() {
  const { t } = useTranslation();
  return (
    <div aria-busy="true" aria-live="polite" data-testid="testimonial-detail-loading">
      <span className="sr-only">{t('testimonialDetail.loading')}</span>
      <div className="mb-8 flex flex-col gap-3">
        <Skeleton className="h-4 w-40" />
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-4 w-80 max-w-full" />
      </div>
      <Skeleton className="mb-8 h-24 w-full rounded-card" />
      <div className="grid gap-4 lg:grid-cols-2 lg:gap-6">
        {[0, 1].map((card) => (
          <div key={card} className="overflow-hidden rounded-card border border-gray-200 bg-white">
            <div className="flex gap-3 p-4">
              <Skeleton className="size-7 rounded-full" />
              <div className="flex flex-1 flex-col gap-2">
                <Skeleton className="h-3 w-20" />
                <Skeleton className="h-4 w-3/4" />
              </div>
            </div>
            <Skeleton className="aspect-video w-full rounded-none" />
            <div className="flex gap-2 p-4">
              <Skeleton className="h-8 w-28" />
              <Skeleton className="h-8 w-32" />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}

function Notice({
  icon,
  title,
  description,
  action,
  testId,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  action?: ReactNode;
  testId: string;
}) {
  return (
    <Card padding="none" data-testid={testId}>
      <EmptyState headingLevel="h1" icon={icon} title={title} description={<p className="text-sm">{description}</p>} action={action} />
    </Card>
  );
}

/**
 * The testimonial detail (spec §2, §4, §7, §8): the header, the merged video, each answer with its
 * player and studio actions, the processing modal while a render runs, the banners, and the states
 * of the detail call (loading, error with retry, not found, no credits, unpaid, not recorded yet).
 */
export function TestimonialDetailScreen() {
  const { id = '' } = useParams();
  // Another testimonial starts afresh: no job followed, no dialog or banner carried over.
  return <TestimonialDetail key={id} id={id} />;
}

function TestimonialDetail({ id }: { id: string }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const companyId = user?.company_id ?? '';
  const { language } = useLanguage();
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const [watch, setWatch] = useState<Watch | null>(null);
  const [dialog, setDialog] = useState<TDialog | null>(null);
  const [banner, setBanner] = useState<TBanner | null>(null);
  const [now, setNow] = useState(() => Date.now());

  const query = useTestimonial(companyId, id, (data) => {
    const testimonial = data?.testimonial;
    if (watch || (testimonial && anyJobRunning(testimonial))) return RENDER_POLL_MS;
    if (testimonial?.testimonial_responses.some(isPreparing)) return PREPARING_POLL_MS;
    return false;
  });
  const testimonial = query.data?.testimonial ?? null;
  const stamp = query.dataUpdatedAt;
  useSinglePlayback();

  const generateIntro = useGenerateIntroMutation();
  const regenerate = useRegenerateMutation();
  const merge = useMergeMutation();
  const regenerateMerged = useRegenerateMergedMutation();
  const pay = usePayTestimonialMutation();

  const showBanner = (next: Omit<TBanner, 'id'>) => {
    setBanner({ ...next, id: Date.now() });
  };

  // The followed job has finished once a read made after it started shows it neither queued nor rendering.
  if (watch && testimonial && query.dataUpdatedAt >= watch.since) {
    const state = targetState(testimonial, watch.target);
    if (!isRunning(state)) {
      setWatch(null);
      const bannerId = query.dataUpdatedAt;
      setBanner(
        state?.phase === 'failed'
          ? { id: bannerId, tone: 'error', title: t('testimonialDetail.errors.jobFailed'), message: state.error ?? undefined }
          : { id: bannerId, tone: 'success', title: t(`testimonialDetail.success.${watch.action}`) },
      );
    }
  }

  // The export dialog lands back here with ?export=ready: it has done its work.
  const exportUrl = searchParams.get('export') === 'ready' ? exportFromApi(testimonial, searchParams.get('exportUrl')) : null;
  if (exportUrl && dialog?.kind === 'export') setDialog(null);

  useEffect(() => {
    if (banner?.tone !== 'success') return;
    const timer = window.setTimeout(() => setBanner(null), BANNER_MS);
    return () => window.clearTimeout(timer);
  }, [banner]);

  // The processing modal's slow climb (+1 every 2 s) needs a clock while a job is followed.
  useEffect(() => {
    if (!watch) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1_000);
    return () => window.clearInterval(timer);
  }, [watch]);

  useEffect(() => {
    if (query.error) console.warn('GET /api/testimonials/request/{id} failed.', query.error);
  }, [query.error]);

  const clearExportParams = () =>
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.delete('export');
        next.delete('exportUrl');
        return next;
      },
      { replace: true },
    );

  const follow = (action: TStudioAction, target: TRenderTarget) => {
    const startedAt = Date.now();
    setNow(startedAt);
    setWatch({ action, target, since: startedAt, dismissed: false });
  };

  /** A transcription review started a subtitles render: read the detail again and show the progress. */
  const onSubtitlesStarted = async (action: 'subtitles' | 'merge_subtitles', target: TRenderTarget) => {
    setDialog(null);
    await markRenderStarted(queryClient, {
      companyId,
      testimonialId: id,
      target,
      state: { output: action, phase: 'queued', progress: 0, error: null },
    });
    follow(action, target);
  };

  const startFailed = (action: keyof typeof START_FAILED, error: unknown) => {
    console.warn(`Starting ${action} failed.`, error);
    setDialog(null);
    const detail = isApiError(error) && error.status === 409 ? t('testimonialDetail.errors.conflict') : apiErrorMessage(error, t);
    showBanner({ tone: 'error', title: t(START_FAILED[action]), message: detail });
  };

  const confirmStart = async () => {
    if (!dialog || !testimonial) return;
    const base = { companyId, testimonialId: testimonial.id, language };
    try {
      if (dialog.kind === 'intro') {
        await generateIntro.mutateAsync({ ...base, responseId: dialog.response.id });
        follow('intro', { kind: 'response', id: dialog.response.id });
      } else if (dialog.kind === 'regenerate') {
        await regenerate.mutateAsync({ ...base, responseId: dialog.response.id });
        follow('regenerate', { kind: 'response', id: dialog.response.id });
      } else if (dialog.kind === 'merge') {
        await merge.mutateAsync(base);
        follow('merge', { kind: 'testimonial' });
      } else if (dialog.kind === 'regenerate_merged') {
        await regenerateMerged.mutateAsync(base);
        follow('regenerate_merged', { kind: 'testimonial' });
      } else return;
      setBanner(null);
      setDialog(null);
    } catch (error) {
      if (dialog.kind === 'intro' || dialog.kind === 'regenerate' || dialog.kind === 'merge' || dialog.kind === 'regenerate_merged') {
        startFailed(dialog.kind, error);
      }
    }
  };

  const confirmPay = () => {
    if (!testimonial) return;
    pay.mutate(
      { id: testimonial.id, companyId },
      {
        onSuccess: () => {
          setDialog(null);
          showBanner({ tone: 'success', title: t('testimonialDetail.pay.success') });
          void queryClient.invalidateQueries({ queryKey: testimonialKeys.detail(companyId, testimonial.id) });
        },
        onError: (error) => {
          console.warn('POST /api/testimonials/pay/{id} failed.', error);
          setDialog(null);
          showBanner(
            isNoCreditsError(error)
              ? {
                  tone: 'error',
                  title: t('testimonialDetail.noCredits.title'),
                  message: t('testimonialDetail.noCredits.description'),
                  buyLink: true,
                }
              : { tone: 'error', title: t('testimonialDetail.pay.error'), message: apiErrorMessage(error, t) },
          );
        },
      },
    );
  };

  const reload = () => void query.refetch();
  const notFound = isApiError(query.error) && (query.error.status === 404 || query.error.status === 400);

  let content: ReactNode;
  if (query.isPending) {
    content = <LoadingSkeleton />;
  } else if (notFound || (query.data && !testimonial && !query.data.error_credit)) {
    content = (
      <Notice
        testId="testimonial-not-found"
        icon={<CompassIcon className="size-6" />}
        title={t('testimonialDetail.notFound.title')}
        description={t('testimonialDetail.notFound.description')}
        action={
          <ButtonLink to={paths.dashboard.testimonials} variant="secondary" leadingIcon={<ArrowLeftIcon className="size-4" />}>
            {t('testimonialDetail.back')}
          </ButtonLink>
        }
      />
    );
  } else if (query.isError || !query.data) {
    content = (
      <>
        <div className="mb-6">
          <BackLink />
        </div>
        <ErrorState
          message={t('testimonialDetail.loadError')}
          onRetry={reload}
          retrying={query.isFetching}
          data-testid="testimonial-detail-error"
        />
      </>
    );
  } else if (!testimonial) {
    content = (
      <>
        <div className="mb-6">
          <BackLink />
        </div>
        <Notice
          testId="no-credits"
          icon={<CoinsIcon className="size-6" />}
          title={t('testimonialDetail.noCredits.title')}
          description={t('testimonialDetail.noCredits.description')}
          action={
            <ButtonLink to={paths.dashboard.payment} leadingIcon={<CoinsIcon className="size-4" />} data-testid="no-credits-buy">
              {t('testimonialDetail.noCredits.buy')}
            </ButtonLink>
          }
        />
      </>
    );
  } else {
    content = <Detail testimonial={testimonial} stamp={stamp} onReload={reload} onDialog={setDialog} />;
  }

  const running = testimonial ? runningJob(testimonial) : null;
  const watchedState = watch && testimonial ? targetState(testimonial, watch.target) : null;
  const startPending = generateIntro.isPending || regenerate.isPending || merge.isPending || regenerateMerged.isPending;

  return (
    <>
      <Seo
        title={testimonial?.customer_name ?? t('testimonialDetail.title')}
        description={t('testimonialDetail.description')}
        robots="noindex"
      />
      <div className="flex flex-col gap-3 empty:hidden" aria-live="polite">
        {exportUrl && (
          <Alert
            tone="success"
            title={t('testimonialDetail.exportReady.title')}
            data-testid="export-ready-banner"
            className="mb-4"
            action={
              <>
                <Button
                  size="sm"
                  leadingIcon={<DownloadIcon className="size-4" />}
                  trailingIcon={<ExternalIcon className="size-3.5" />}
                  data-testid="export-ready-download"
                  onClick={() => {
                    window.open(exportUrl, '_blank', 'noopener,noreferrer');
                    clearExportParams();
                  }}
                >
                  {t('testimonialDetail.exportReady.download')}
                </Button>
                <Button size="sm" variant="ghost" data-testid="export-ready-dismiss" onClick={clearExportParams}>
                  {t('testimonialDetail.exportReady.dismiss')}
                </Button>
              </>
            }
          >
            {t('testimonialDetail.exportReady.description')}
          </Alert>
        )}
        {banner && (
          <div key={banner.id} className="relative mb-4">
            <Alert
              tone={banner.tone}
              title={banner.title}
              data-testid={banner.tone === 'success' ? 'success-banner' : 'error-banner'}
              className="pr-12"
              action={
                banner.buyLink ? (
                  <ButtonLink to={paths.dashboard.payment} size="sm" leadingIcon={<CoinsIcon className="size-4" />}>
                    {t('testimonialDetail.noCredits.buy')}
                  </ButtonLink>
                ) : undefined
              }
            >
              {banner.message}
            </Alert>
            <button
              type="button"
              onClick={() => setBanner(null)}
              aria-label={t('dashboard.common.close')}
              data-testid="banner-close"
              className="absolute top-2 right-2 inline-flex size-8 items-center justify-center rounded-control text-current opacity-70 hover:bg-black/5 hover:opacity-100"
            >
              <CloseIcon className="size-4" />
            </button>
          </div>
        )}
        {running && (!watch || watch.dismissed) && (
          <Alert
            tone="info"
            title={t('testimonialDetail.processing.inline')}
            data-testid="job-status"
            className="mb-4"
            action={
              watch ? (
                <Button size="sm" variant="secondary" onClick={() => setWatch({ ...watch, dismissed: false })}>
                  {t('testimonialDetail.processing.show')}
                </Button>
              ) : undefined
            }
          >
            <p>{t('testimonialDetail.processing.email')}</p>
            <ProgressBar
              className="mt-3 bg-white"
              value={watch ? displayedProgress(watchedState, now - watch.since) : running.progress}
              label={t('testimonialDetail.processing.progressLabel')}
            />
          </Alert>
        )}
      </div>

      {content}

      {testimonial && (
        <>
          {watch && (
            <ProcessingModal
              open={!watch.dismissed}
              onDismiss={() => setWatch({ ...watch, dismissed: true })}
              action={watch.action}
              state={watchedState}
              progress={displayedProgress(watchedState, now - watch.since)}
            />
          )}
          <ActionConfirmDialog
            open={
              dialog?.kind === 'intro' || dialog?.kind === 'regenerate' || dialog?.kind === 'merge' || dialog?.kind === 'regenerate_merged'
            }
            onOpenChange={(open) => {
              if (!open) setDialog(null);
            }}
            title={dialog ? t(`testimonialDetail.confirm.${confirmKey(dialog.kind)}.title`) : ''}
            description={dialog ? t(`testimonialDetail.confirm.${confirmKey(dialog.kind)}.description`) : ''}
            confirmLabel={dialog ? t(`testimonialDetail.confirm.${confirmKey(dialog.kind)}.confirm`) : ''}
            onConfirm={() => void confirmStart()}
            pending={startPending}
            data-testid="confirm-dialog"
          >
            {dialog && 'response' in dialog && dialog.response ? (
              <p className="rounded-control bg-gray-50 px-3 py-2 text-sm text-gray-800 ring-1 ring-gray-200">
                <span className="font-medium">{t('testimonialDetail.answer.position', { position: dialog.response.orderPosition })}</span>
                {' · '}
                {dialog.response.question.text}
              </p>
            ) : null}
          </ActionConfirmDialog>
          <ActionConfirmDialog
            open={dialog?.kind === 'pay'}
            onOpenChange={(open) => {
              if (!open) setDialog(null);
            }}
            title={t('testimonialDetail.pay.title')}
            description={t('testimonialDetail.pay.description', { name: testimonial.customer_name })}
            confirmLabel={t('testimonialDetail.pay.confirm')}
            onConfirm={confirmPay}
            pending={pay.isPending}
            data-testid="pay-dialog"
          />
          <VideoModal
            open={dialog?.kind === 'view'}
            onOpenChange={(open) => {
              if (!open) setDialog(null);
            }}
            title={
              dialog?.kind === 'view'
                ? t('testimonialDetail.answer.position', { position: dialog.response.orderPosition })
                : t('testimonialDetail.title')
            }
            description={dialog?.kind === 'view' ? dialog.response.question.text : undefined}
            url={dialog?.kind === 'view' ? (dialog.response.modified_video_url ?? dialog.response.video_url) : null}
            poster={dialog?.kind === 'view' ? dialog.response.poster_url : null}
            stamp={stamp}
            onReload={reload}
          />
          {dialog?.kind === 'subtitles' && (
            <TranscriptionReviewDialog
              open
              onOpenChange={(open) => {
                if (!open) setDialog(null);
              }}
              responseId={dialog.response.id}
              questionText={dialog.response.question.text}
              customerName={testimonial.customer_name}
              onGenerationStarted={() => void onSubtitlesStarted('subtitles', { kind: 'response', id: dialog.response.id })}
            />
          )}
          {dialog?.kind === 'merged_subtitles' && (
            <MergedTranscriptionReviewDialog
              open
              onOpenChange={(open) => {
                if (!open) setDialog(null);
              }}
              testimonialId={testimonial.id}
              customerName={testimonial.customer_name}
              onGenerationStarted={() => void onSubtitlesStarted('merge_subtitles', { kind: 'testimonial' })}
            />
          )}
          {dialog?.kind === 'export' && (
            <ExportDialog
              open
              onOpenChange={(open) => {
                if (!open) setDialog(null);
              }}
              testimonialId={testimonial.id}
              target={dialog.response ? { kind: 'response', id: dialog.response.id } : { kind: 'testimonial' }}
              originalUrl={(dialog.response ? dialog.response.video_url : (testimonial.video_url ?? testimonial.video_url_subtitles)) ?? ''}
              modifiedUrl={
                dialog.response ? dialog.response.modified_video_url : testimonial.video_url ? testimonial.video_url_subtitles : null
              }
            />
          )}
        </>
      )}
    </>
  );
}

function confirmKey(kind: TDialog['kind']): 'intro' | 'regenerate' | 'merge' | 'regenerateMerged' {
  if (kind === 'regenerate') return 'regenerate';
  if (kind === 'merge') return 'merge';
  if (kind === 'regenerate_merged') return 'regenerateMerged';
  return 'intro';
}

interface DetailProps {
  testimonial: TTestimonialRequest;
  stamp: number;
  onReload: () => void;
  onDialog: (dialog: TDialog) => void;
}

/** The loaded testimonial: locked until paid, empty until recorded, otherwise the studio. */
function Detail({ testimonial, stamp, onReload, onDialog }: DetailProps) {
  const { t } = useTranslation();
  const busy = anyJobRunning(testimonial);
  const responses = testimonial.testimonial_responses;
  const merged = mergedActions(testimonial);
  const preparing = responses.some(isPreparing);
  const locked = testimonial.status === 'completed' && !testimonial.paid;

  if (locked) {
    return (
      <>
        <Header testimonial={testimonial} />
        <Card padding="none" data-testid="testimonial-locked">
          <EmptyState
            icon={<LockIcon className="size-6" />}
            title={t('testimonialDetail.locked.title')}
            description={<p className="text-sm">{t('testimonialDetail.locked.description', { count: responses.length })}</p>}
            action={
              <Button leadingIcon={<CoinsIcon className="size-4" />} onClick={() => onDialog({ kind: 'pay' })} data-testid="pay-to-view">
                {t('testimonialDetail.pay.action')}
              </Button>
            }
          />
        </Card>
      </>
    );
  }

  if (responses.length === 0) {
    const pending = testimonial.status === 'pending';
    return (
      <>
        <Header testimonial={testimonial} />
        <Card padding="none" data-testid="testimonial-empty">
          <EmptyState
            icon={<VideoIcon className="size-6" />}
            title={t(`testimonialDetail.empty.${testimonial.status === 'completed' ? 'completed' : pending ? 'pending' : 'expired'}.title`)}
            description={
              <p className="text-sm">
                {t(
                  `testimonialDetail.empty.${testimonial.status === 'completed' ? 'completed' : pending ? 'pending' : 'expired'}.description`,
                  {
                    date: formatDate(testimonial.expires_at),
                  },
                )}
              </p>
            }
            action={
              <ButtonLink to={paths.dashboard.request(testimonial.id)} variant="secondary">
                {t('testimonialDetail.empty.openRequest')}
              </ButtonLink>
            }
          />
        </Card>
      </>
    );
  }

  return (
    <>
      <Header testimonial={testimonial} />
      <section aria-label={t('testimonialDetail.merged.title')} className="mb-8">
        {merged.show ? (
          <MergedCard
            testimonial={testimonial}
            stamp={stamp}
            busy={busy}
            onSubtitles={() => onDialog({ kind: 'merged_subtitles' })}
            onExport={() => onDialog({ kind: 'export', response: null })}
            onRegenerate={() => onDialog({ kind: 'regenerate_merged' })}
            onReload={onReload}
          />
        ) : merged.merge ? (
          <MergePrompt count={responses.length} busy={busy || preparing} onMerge={() => onDialog({ kind: 'merge' })} />
        ) : null}
      </section>
      <section aria-labelledby="answers-title">
        <div className="mb-4 flex items-baseline justify-between gap-4">
          <h2 id="answers-title" className="text-base font-semibold text-gray-900">
            {t('testimonialDetail.answers.title')}
          </h2>
          <p className="text-sm text-gray-500">{t('testimonialDetail.answers.hint')}</p>
        </div>
        <div className="grid gap-4 lg:grid-cols-2 lg:gap-6">
          {responses.map((response) => (
            <ResponseCard
              key={response.id}
              response={response}
              customerName={testimonial.customer_name}
              stamp={stamp}
              busy={busy}
              onIntro={() => onDialog({ kind: 'intro', response })}
              onSubtitles={() => onDialog({ kind: 'subtitles', response })}
              onView={() => onDialog({ kind: 'view', response })}
              onExport={() => onDialog({ kind: 'export', response })}
              onRegenerate={() => onDialog({ kind: 'regenerate', response })}
              onReload={onReload}
            />
          ))}
        </div>
      </section>
    </>
  );
}
