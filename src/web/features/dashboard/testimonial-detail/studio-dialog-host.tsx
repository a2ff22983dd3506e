import { useTranslation } from 'react-i18next';
import type { TTestimonialRequest } from '../../../../contract/api/testimonials.schema.js';
import { ExportDialog } from '../export/export-dialog';
import { MergedTranscriptionReviewDialog } from '../transcription/merged-transcription-review-dialog';
import { TranscriptionReviewDialog } from '../transcription/transcription-review-dialog';
import { ActionConfirmDialog, ProcessingModal, VideoModal } from './studio-dialogs';
import { cropFrameUrl } from './studio-state';
import { TrimDialog } from './trim-dialog';
import { isStartKind } from './use-studio';
import type { TDialog, TStudio } from './use-studio';

const CONFIRM_KEY = { intro: 'intro', regenerate: 'regenerate', merge: 'merge', regenerate_merged: 'regenerateMerged' } as const;

/**
 * Every dialog of the detail page, one open at a time (spec §2): the confirmations of renders and of
 * the payment, the processing dialog of a followed render, the player, both transcription reviews and
 * the export.
 */
export function StudioDialogHost({ testimonial, studio, onReload }: { testimonial: TTestimonialRequest; studio: TStudio; onReload: () => void }) {
  const { t } = useTranslation();
  const { dialog, watch } = studio;
  const onOpenChange = (open: boolean) => {
    if (!open) studio.closeDialog();
  };
  const confirmKey = dialog && isStartKind(dialog.kind) ? CONFIRM_KEY[dialog.kind] : null;
  const answer = dialog && 'response' in dialog ? dialog.response : null;

  return (
    <>
      {watch && (
        <ProcessingModal open={!watch.dismissed} onDismiss={studio.dismissWatch} action={watch.action} follow={studio.watched} since={watch.since} />
      )}
      <ActionConfirmDialog
        open={confirmKey !== null}
        onOpenChange={onOpenChange}
        title={confirmKey ? t(`testimonialDetail.confirm.${confirmKey}.title`) : ''}
        description={confirmKey ? t(`testimonialDetail.confirm.${confirmKey}.description`) : ''}
        confirmLabel={confirmKey ? t(`testimonialDetail.confirm.${confirmKey}.confirm`) : ''}
        onConfirm={studio.confirmStart}
        pending={studio.startPending}
        data-testid="confirm-dialog"
      >
        {confirmKey && answer ? (
          <p className="rounded-control bg-gray-50 px-3 py-2 text-sm text-gray-800 ring-1 ring-gray-200">
            <span className="font-medium">{t('testimonialDetail.answer.position', { position: answer.orderPosition })}</span>
            {' · '}
            {answer.question.text}
          </p>
        ) : null}
      </ActionConfirmDialog>
      <ActionConfirmDialog
        open={dialog?.kind === 'pay'}
        onOpenChange={onOpenChange}
        title={t('testimonialDetail.pay.title')}
        description={t('testimonialDetail.pay.description', { name: testimonial.customer_name })}
        confirmLabel={t('testimonialDetail.pay.confirm')}
        onConfirm={studio.confirmPay}
        pending={studio.payPending}
        data-testid="pay-dialog"
      />
      <VideoModal
        open={dialog?.kind === 'view'}
        onOpenChange={onOpenChange}
        title={answer ? t('testimonialDetail.answer.position', { position: answer.orderPosition }) : t('testimonialDetail.title')}
        description={dialog?.kind === 'view' ? answer?.question.text : undefined}
        url={dialog?.kind === 'view' && answer ? (answer.modified_video_url ?? answer.video_url) : null}
        poster={dialog?.kind === 'view' && answer ? (answer.modified_video_url ? answer.modified_poster_url : answer.poster_url) : null}
        onReload={onReload}
      />
      {dialog?.kind === 'trim' && <TrimDialog response={dialog.response} onOpenChange={onOpenChange} onSaved={onReload} />}
      <Reviews testimonial={testimonial} dialog={dialog} studio={studio} onOpenChange={onOpenChange} />
      {dialog?.kind === 'export' && (
        <ExportDialog
          open
          onOpenChange={onOpenChange}
          testimonialId={testimonial.id}
          target={dialog.response ? { kind: 'response', id: dialog.response.id } : { kind: 'testimonial' }}
          originalUrl={(dialog.response ? dialog.response.video_url : (testimonial.video_url ?? testimonial.video_url_subtitles)) ?? ''}
          modifiedUrl={dialog.response ? dialog.response.modified_video_url : testimonial.video_url ? testimonial.video_url_subtitles : null}
          frameUrl={cropFrameUrl(testimonial, dialog.response) ?? ''}
        />
      )}
    </>
  );
}

function Reviews({ testimonial, dialog, studio, onOpenChange }: { testimonial: TTestimonialRequest; dialog: TDialog | null; studio: TStudio; onOpenChange: (open: boolean) => void }) {
  if (dialog?.kind === 'subtitles') {
    const responseId = dialog.response.id;
    return (
      <TranscriptionReviewDialog
        open
        onOpenChange={onOpenChange}
        responseId={responseId}
        questionText={dialog.response.question.text}
        customerName={testimonial.customer_name}
        videoUrl={dialog.response.video_url}
        posterUrl={dialog.response.poster_url}
        onGenerationStarted={(started) => studio.subtitlesStarted('subtitles', { kind: 'response', id: responseId }, started)}
      />
    );
  }
  if (dialog?.kind === 'merged_subtitles') {
    return (
      <MergedTranscriptionReviewDialog
        open
        onOpenChange={onOpenChange}
        testimonialId={testimonial.id}
        customerName={testimonial.customer_name}
        videos={Object.fromEntries(testimonial.testimonial_responses.map((response) => [response.id, { videoUrl: response.video_url, posterUrl: response.poster_url }]))}
        onGenerationStarted={(started) => studio.subtitlesStarted('merged_subtitles', { kind: 'testimonial' }, started)}
      />
    );
  }
  return null;
}
