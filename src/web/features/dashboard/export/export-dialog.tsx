import { useEffect, useState } from 'react';
import type { JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EXPORT_PLATFORMS, EXPORT_PLATFORM_SPECS } from '../../../../contract/api/studio.schema.js';
import type { TExportPlatform, TExportVideoType } from '../../../../contract/api/studio.schema.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { Skeleton } from '../../../components/skeleton';
import { Spinner } from '../../../components/spinner';
import type { ExportTarget } from '../api/export-video';
import { useCropFocus } from '../api/crop-focus';
import { JobProgress } from '../jobs/job-progress';
import { CropEditor } from './crop-editor';
import { areaAround, areaAt, initialArea, pixelsToFractions, validateCropArea, type PixelArea } from './crop-math';
import { OptionCard } from './option-card';
import { exportLanding, useExportJob } from './use-export-job';
import { StepIndicator } from './step-indicator';
import { useVideoFrame } from './use-video-frame';
import type { VideoFrameError } from './video-frame';

export interface ExportDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  testimonialId: string;
  /** One answer, or the testimonial's merged video. */
  target: ExportTarget;
  /** The original video's address (the answer as recorded, or the merged video). */
  originalUrl: string;
  /** The enhanced version's address (intro and/or subtitles), null when there is none. */
  modifiedUrl: string | null;
  /**
   * The answer as recorded (its prepared video; for the merged video, the first answer's): the crop
   * editor's frame for both versions. An export crops the answer, and the renderer lays the card and
   * the subtitles out again for the output's frame (issue 17), so the crop fractions apply to the
   * answer's picture and the speaker's face, not the intro card, decides them.
   */
  frameUrl: string;
}

const PLATFORMS: readonly TExportPlatform[] = EXPORT_PLATFORMS;

/**
 * The export modal (spec: company dashboard §2, §4 export dialog): step 1 picks the original or the
 * enhanced version (only when one exists), step 2 the format and the crop area on a frame of the
 * answer as recorded (for both versions: see `frameUrl`); then the export's job is followed (useJob)
 * with its progress, and when it is ready the person lands on the testimonial with the 'export ready'
 * banner (export=ready&exportUrl=…&exportJob=…).
 */
export function ExportDialog(props: ExportDialogProps): JSX.Element {
  // Mounted only while open, so that every opening starts afresh.
  return props.open ? <OpenExportDialog {...props} /> : <></>;
}

function OpenExportDialog({ onOpenChange, testimonialId, target, originalUrl, modifiedUrl, frameUrl }: ExportDialogProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const hasModified = Boolean(modifiedUrl);

  const [step, setStep] = useState<'version' | 'crop'>(hasModified ? 'version' : 'crop');
  const [videoType, setVideoType] = useState<TExportVideoType>(hasModified ? 'modified' : 'original');
  const [platform, setPlatform] = useState<TExportPlatform>('shorts');
  /** Further formats made in the same run, each framed around the chosen area's centre (issue 31). */
  const [extra, setExtra] = useState<TExportPlatform[]>([]);
  const [attempt, setAttempt] = useState(0);
  /** The area chosen by the person, for one source and one platform; otherwise the centred maximum. */
  const [chosen, setChosen] = useState<{ key: string; area: PixelArea } | null>(null);
  /** A crop area refused before sending (the export's own failures come from useExportJob). */
  const [cropError, setCropError] = useState<string | null>(null);
  const exportJob = useExportJob({
    testimonialId,
    target,
    onReady: (url, jobId) => {
      onOpenChange(false);
      navigate(exportLanding(testimonialId, url, jobId));
    },
  });
  const { running } = exportJob;
  const error = cropError ?? exportJob.error;

  const spec = EXPORT_PLATFORM_SPECS[platform];
  // The same frame for both versions: the chosen area stays when the person goes back and switches.
  const frameState = useVideoFrame(frameUrl, attempt);
  const frame = frameState.status === 'ready' ? frameState.frame : null;
  const areaKey = `${frameUrl}|${platform}`;
  // The smart crop (issue 31): an answer's frame starts around where its picture moves; the person can move it.
  const focusQuery = useCropFocus(target.kind === 'response' ? target.id : null);
  const focus = focusQuery.data ?? null;
  /** For tests: whether the proposal is still being worked out ('pending'), found, or none. */
  const focusState = target.kind === 'response' && focusQuery.isPending ? 'pending' : focus ? 'found' : 'none';
  const proposed = (size: { width: number; height: number }) => (focus ? areaAt(focus, size, spec.ratio) : initialArea(size, spec.ratio));
  const area = frame ? (chosen?.key === areaKey ? chosen.area : proposed(frame.original)) : null;

  // Leaving the page would lose the result: the browser asks first while the export runs.
  useEffect(() => {
    if (!running) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [running]);

  const steps = hasModified
    ? [t('exportVideo.steps.version'), t('exportVideo.steps.crop'), t('exportVideo.steps.export')]
    : [t('exportVideo.steps.crop'), t('exportVideo.steps.export')];
  const currentStep = (hasModified ? 1 : 0) + (step === 'version' ? -1 : 0) + (running ? 1 : 0);

  const frameErrorMessage = (failure: VideoFrameError) => {
    const reason = failure.reason ?? t('exportVideo.errors.unknownReason');
    switch (failure.kind) {
      case 'metadata':
        return t('exportVideo.errors.metadata');
      case 'dimensions':
        return t('exportVideo.errors.dimensions');
      case 'extract':
        return t('exportVideo.errors.extract', { reason });
      default:
        return t('exportVideo.errors.frame', { reason });
    }
  };

  const startExport = () => {
    if (!frame || !area || running) return;
    const checked = validateCropArea(pixelsToFractions(area, frame.original));
    if (!checked.ok) {
      console.error('Crop area refused', checked.message);
      setCropError(t('exportVideo.errors.crop'));
      return;
    }
    const platforms = [];
    for (const name of extra.filter((other) => other !== platform)) {
      const other = validateCropArea(pixelsToFractions(areaAround(area, EXPORT_PLATFORM_SPECS[name].ratio, frame.original), frame.original));
      if (!other.ok) {
        console.error('Crop area refused', name, other.message);
        setCropError(t('exportVideo.errors.crop'));
        return;
      }
      platforms.push({ platform: name, cropArea: other.area });
    }
    setCropError(null);
    void exportJob.start({
      platform,
      videoType,
      cropArea: checked.area,
      language: i18n.resolvedLanguage === 'fr' ? 'fr' : 'en',
      ...(platforms.length ? { platforms } : {}),
    });
  };

  const platformPicker = (
    <fieldset disabled={running}>
      <legend className="mb-3 text-sm font-medium text-gray-900">{t('exportVideo.platform.legend')}</legend>
      <div className="grid grid-cols-2 gap-3">
        {PLATFORMS.map((name) => {
          const platformSpec = EXPORT_PLATFORM_SPECS[name];
          return (
            <OptionCard
              key={name}
              name="export-platform"
              value={name}
              checked={platform === name}
              onSelect={() => setPlatform(name)}
              title={t(`exportVideo.platform.${name}`)}
              hint={
                <>
                  <span className="hidden sm:inline">{t(`exportVideo.platform.${name}Hint`)} · </span>
                  <span className="tabular-nums">{platformSpec.aspect}</span>
                </>
              }
              aside={<RatioGlyph ratio={platformSpec.ratio} />}
              data-testid={`export-platform-${name}`}
            />
          );
        })}
      </div>
    </fieldset>
  );

  const others = PLATFORMS.filter((name) => name !== platform);
  const alsoPicker = (
    <fieldset disabled={running} data-testid="export-also">
      <legend className="text-sm font-medium text-gray-900">{t('exportVideo.also.legend')}</legend>
      <p className="mt-1 text-sm text-gray-600">{t('exportVideo.also.hint')}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        {others.map((name) => {
          const checked = extra.includes(name);
          return (
            <label
              key={name}
              className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-control border border-gray-200 bg-white px-3 text-sm text-gray-800 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600"
            >
              <input
                type="checkbox"
                className="size-4 accent-brand-600"
                checked={checked}
                onChange={() => setExtra((list) => (checked ? list.filter((item) => item !== name) : [...list, name]))}
                data-testid={`export-also-${name}`}
              />
              <span>{t(`exportVideo.platform.${name}`)}</span>
              <span className="tabular-nums text-gray-500">{EXPORT_PLATFORM_SPECS[name].aspect}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );

  const footer =
    step === 'version' ? (
      <>
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          {t('dashboard.common.cancel')}
        </Button>
        <Button onClick={() => setStep('crop')} data-testid="export-next">
          {t('exportVideo.next')}
        </Button>
      </>
    ) : (
      <>
        {hasModified ? (
          <Button
            variant="ghost"
            className="sm:mr-auto"
            onClick={() => {
              setCropError(null);
              exportJob.reset();
              setStep('version');
            }}
            disabled={running}
            data-testid="export-back"
          >
            {t('exportVideo.back')}
          </Button>
        ) : null}
        <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={running}>
          {t('dashboard.common.cancel')}
        </Button>
        <Button onClick={startExport} loading={running} disabled={!frame} data-testid="export-start">
          {t('exportVideo.start')}
        </Button>
      </>
    );

  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      title={t('exportVideo.title')}
      description={t('exportVideo.description')}
      size={step === 'crop' ? 'xl' : 'lg'}
      busy={running}
      footer={footer}
      data-testid="export-dialog"
    >
      <div className="flex flex-col gap-5" data-crop-focus={focusState}>
        <StepIndicator steps={steps} current={currentStep} />

        {step === 'version' ? (
          <fieldset>
            <legend className="mb-3 text-sm font-medium text-gray-900">{t('exportVideo.choice.legend')}</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {(['original', 'modified'] as const).map((type) => {
                const url = type === 'modified' ? modifiedUrl : originalUrl;
                return (
                  <OptionCard
                    key={type}
                    name="export-version"
                    value={type}
                    checked={videoType === type}
                    onSelect={() => setVideoType(type)}
                    title={t(`exportVideo.choice.${type}`)}
                    hint={t(`exportVideo.choice.${type}Hint`)}
                    media={
                      url ? (
                        <video
                          src={`${url}#t=1`}
                          crossOrigin="anonymous"
                          preload="metadata"
                          muted
                          playsInline
                          aria-hidden="true"
                          tabIndex={-1}
                          className="pointer-events-none aspect-video w-full rounded-control bg-gray-900 object-contain"
                        />
                      ) : null
                    }
                    data-testid={`export-choice-${type}`}
                  />
                );
              })}
            </div>
          </fieldset>
        ) : (
          <>
            {running ? (
              <div className="flex flex-col gap-3 rounded-card border border-brand-100 bg-brand-50/60 p-4" data-testid="export-progress">
                <p className="font-medium text-gray-900">{t('exportVideo.progress.title')}</p>
                <JobProgress
                  follow={exportJob.follow}
                  since={exportJob.since}
                  size="md"
                  label={t('exportVideo.progress.label')}
                  data-testid="export-job"
                />
                <p className="text-sm text-gray-600">{t('exportVideo.progress.hint')}</p>
              </div>
            ) : null}

            {error ? (
              <Alert tone="error" data-testid="export-error">
                {error}
              </Alert>
            ) : null}

            <div className={running ? 'hidden' : 'flex flex-col gap-5'}>
              {platformPicker}
              {frame && area ? (
                <CropEditor
                  frame={frame}
                  ratio={spec.ratio}
                  output={{ width: spec.width, height: spec.height }}
                  area={area}
                  onAreaChange={(next) => setChosen({ key: areaKey, area: next })}
                  disabled={running}
                  initial={focus ? proposed(frame.original) : undefined}
                />
              ) : frameState.status === 'error' ? (
                <Alert
                  tone="error"
                  data-testid="crop-frame-error"
                  action={
                    <Button variant="secondary" size="sm" onClick={() => setAttempt((value) => value + 1)}>
                      {t('exportVideo.errors.retry')}
                    </Button>
                  }
                >
                  {frameErrorMessage(frameState.error)}
                </Alert>
              ) : (
                <div className="flex flex-col gap-3" data-testid="crop-loading">
                  <Skeleton className="aspect-video max-h-[360px] w-full rounded-card" />
                  <p className="flex items-center gap-2 text-sm text-gray-600" role="status">
                    <Spinner className="size-4" />
                    {t('exportVideo.crop.loading')}
                  </p>
                </div>
              )}
              {alsoPicker}
            </div>
          </>
        )}
      </div>
    </Dialog>
  );
}

/** A small outline of the output's shape. */
function RatioGlyph({ ratio }: { ratio: number }) {
  // The longer side 24 px (20 for a square), the other following the ratio.
  const long = ratio === 1 ? 20 : 24;
  const width = Math.round(ratio < 1 ? long * ratio : long);
  const height = Math.round(ratio < 1 ? long : long / ratio);
  return (
    <span aria-hidden="true" className="hidden size-7 shrink-0 items-center justify-center sm:flex">
      <span className="rounded-[3px] border-2 border-current text-gray-400" style={{ width, height }} />
    </span>
  );
}
