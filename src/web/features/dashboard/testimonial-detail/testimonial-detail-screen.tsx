import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import type { TTestimonialRequest } from '../../../../contract/api/testimonials.schema.js';
import { Seo } from '../../../components/seo';
import { isApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { useTestimonial } from '../api/get-testimonial';
import { useJob } from '../jobs/use-job';
import { LoadError, LoadingSkeleton, NoCredits, NotFound } from './detail-states';
import { exportFromApi } from './export-ready';
import { PublishDialog } from './publish-dialog';
import { ExportReadyBanner, OutcomeBanner, RunningJobBanner } from './studio-banners';
import { StudioDialogHost } from './studio-dialog-host';
import { runningJob } from './studio-state';
import { StudioView } from './studio-view';
import { usePublishing } from './use-publishing';
import { useStudio } from './use-studio';
import { ViewsPanel } from './views-panel';
import { ApprovalPanel } from './approval-panel';
import { ConsentRecordSection } from './consent-record-section';
import { useSinglePlayback } from './video-player';

/**
 * The customer's control (issue 29) shows once the studio does (paid, with answers) and the server
 * tells it (customer_control, absent from older servers).
 */
function showsControl(testimonial: TTestimonialRequest): boolean {
  return testimonial.paid && testimonial.testimonial_responses.length > 0 && testimonial.customer_control !== undefined;
}

/**
 * The testimonial detail (spec §2, §4, §7, §8): the header, the merged video, each answer with its
 * player and studio actions, the processing dialog while a render runs, the banners, and the states
 * of the detail call (loading, error with retry, not found, no credits, unpaid, not recorded yet).
 * Jobs are followed one way, through useJob: the detail itself is read once, and again when a job ends.
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
  const [searchParams, setSearchParams] = useSearchParams();
  const query = useTestimonial(companyId, id);
  const testimonial = query.data?.testimonial ?? null;
  const studio = useStudio(companyId, testimonial);
  const publishing = usePublishing(testimonial);
  useSinglePlayback();

  useEffect(() => {
    if (query.error) console.warn('GET /api/testimonials/request/{id} failed.', query.error);
  }, [query.error]);

  // The export dialog lands back here with ?export=ready (and the job it followed).
  const exportJob = useJob(searchParams.get('export') === 'ready' ? searchParams.get('exportJob') : null);
  const exportUrl =
    searchParams.get('export') === 'ready' ? exportFromApi(testimonial, searchParams.get('exportUrl'), exportJob.job?.outputUrl ?? null) : null;
  const clearExportParams = () =>
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const name of ['export', 'exportUrl', 'exportJob']) next.delete(name);
        return next;
      },
      { replace: true },
    );

  const reload = () => void query.refetch();
  const notFound = isApiError(query.error) && (query.error.status === 404 || query.error.status === 400);
  let content: ReactNode;
  if (query.isPending) content = <LoadingSkeleton />;
  else if (notFound || (query.data && !testimonial && !query.data.error_credit)) content = <NotFound />;
  else if (query.isError || !query.data) content = <LoadError onRetry={reload} retrying={query.isFetching} />;
  else if (!testimonial) content = <NoCredits />;
  else
    content = (
      <>
        <StudioView testimonial={testimonial} onReload={reload} onDialog={studio.setDialog} publishing={publishing} />
        {showsControl(testimonial) && (
          <>
            <ApprovalPanel testimonial={testimonial} />
            <ConsentRecordSection testimonial={testimonial} />
          </>
        )}
        {/* Withdrawn before it was unlocked: the consent record still belongs in the company's files. */}
        {!testimonial.paid && testimonial.customer_control?.consent_withdrawn_at && <ConsentRecordSection testimonial={testimonial} />}
        <ViewsPanel testimonialId={testimonial.id} enabled={publishing.enabled} />
      </>
    );

  const running = testimonial ? runningJob(testimonial) : null;
  const { watch } = studio;

  return (
    <>
      <Seo title={testimonial?.customer_name ?? t('testimonialDetail.title')} description={t('testimonialDetail.description')} robots="noindex" />
      <div className="flex flex-col gap-3 empty:hidden" aria-live="polite">
        {exportUrl && (
          <ExportReadyBanner
            url={exportUrl}
            onDone={clearExportParams}
            onPublish={
              publishing.enabled
                ? () => publishing.open({ target: { kind: 'render', url: exportUrl }, title: t('testimonialDetail.exportReady.publishTitle') })
                : undefined
            }
          />
        )}
        {studio.banner && <OutcomeBanner key={studio.banner.id} banner={studio.banner} onClose={studio.closeBanner} />}
        {running && (!watch || watch.dismissed) && (
          <RunningJobBanner
            jobId={watch?.jobId ?? running.jobId ?? null}
            since={watch?.since ?? null}
            onShow={watch ? studio.showWatch : undefined}
          />
        )}
      </div>
      {content}
      {testimonial && <StudioDialogHost testimonial={testimonial} studio={studio} onReload={reload} />}
      <PublishDialog publishing={publishing} />
    </>
  );
}
