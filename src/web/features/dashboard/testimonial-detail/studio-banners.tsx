import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert';
import { Button, ButtonLink } from '../../../components/button';
import { CloseIcon, CoinsIcon, DownloadIcon, ExternalIcon, GlobeIcon } from '../../../components/icons';
import { paths } from '../../../lib/paths';
import { JobProgress } from '../jobs/job-progress';
import { useJob } from '../jobs/use-job';

/** A message at the top of the page: a job's outcome, a payment, a refused start call. */
export type TBanner = { id: number; tone: 'success' | 'error'; title: string; message?: string; buyLink?: boolean };

/** The outcome banner, closable. Test ids `success-banner` or `error-banner`, and `banner-close`. */
export function OutcomeBanner({ banner, onClose }: { banner: TBanner; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="relative mb-4">
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
        onClick={onClose}
        aria-label={t('dashboard.common.close')}
        data-testid="banner-close"
        className="absolute top-2 right-2 inline-flex size-8 items-center justify-center rounded-control text-current opacity-70 hover:bg-black/5 hover:opacity-100"
      >
        <CloseIcon className="size-4" />
      </button>
    </div>
  );
}

/**
 * The export dialog's landing (spec: export=ready and exportUrl): download in a new tab, or dismiss.
 * Both remove the parameters. With `onPublish`, the export can also be published (issue 19): that opens
 * its publish dialog and keeps the banner. Test ids `export-ready-banner`, `export-ready-download`,
 * `export-ready-publish`, `export-ready-dismiss`.
 */
export function ExportReadyBanner({ url, onDone, onPublish }: { url: string; onDone: () => void; onPublish?: (() => void) | undefined }) {
  const { t } = useTranslation();
  return (
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
              window.open(url, '_blank', 'noopener,noreferrer');
              onDone();
            }}
          >
            {t('testimonialDetail.exportReady.download')}
          </Button>
          {onPublish && (
            <Button size="sm" variant="secondary" leadingIcon={<GlobeIcon className="size-4" />} aria-haspopup="dialog" data-testid="export-ready-publish" onClick={onPublish}>
              {t('testimonialDetail.actions.publish')}
            </Button>
          )}
          <Button size="sm" variant="ghost" data-testid="export-ready-dismiss" onClick={onDone}>
            {t('testimonialDetail.exportReady.dismiss')}
          </Button>
        </>
      }
    >
      {t('testimonialDetail.exportReady.description')}
    </Alert>
  );
}

/**
 * A render runs while its processing dialog is closed (or was started elsewhere): its progress, and
 * the way back to the dialog when this page started it. Test id `job-status`.
 */
export function RunningJobBanner({ jobId, since, onShow }: { jobId: string | null; since: number | null; onShow?: () => void }) {
  const { t } = useTranslation();
  const follow = useJob(jobId);
  return (
    <Alert
      tone="info"
      title={t('testimonialDetail.processing.inline')}
      data-testid="job-status"
      className="mb-4"
      action={
        onShow ? (
          <Button size="sm" variant="secondary" onClick={onShow}>
            {t('testimonialDetail.processing.show')}
          </Button>
        ) : undefined
      }
    >
      <p>{t('testimonialDetail.processing.email')}</p>
      {jobId && <JobProgress follow={follow} since={since} className="mt-3" />}
    </Alert>
  );
}
