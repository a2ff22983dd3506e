import type { TFunction } from 'i18next';
import { EXPORT_PLATFORM_SPECS, type TExportVideoType } from '../../../../contract/api/studio.schema.js';
import type { TStoredExport, TTestimonialRequest, TTestimonialResponse } from '../../../../contract/api/testimonials.schema.js';
import { EyeIcon, ExportIcon, IntroIcon, MergeIcon, RegenerateIcon, ScissorsIcon, SubtitlesIcon } from '../../../components/icons';
import { RemovedAnswer, StudioLockedNote } from './consent-banner';
import type { TApprovalGate } from './customer-control';
import { AnswerMedia, RenderStatus } from './media-status';
import type { PublishItem, TPublishTarget } from './publishing';
import { downloadName, exportFileName, mediaStatus, mergedActions, responseActions } from './studio-state';
import type { CardAction, CardExport, CardVersion, VideoCardProps } from './video-card';

/*
 * What the answer's card and the merged video's card show, as props of the one VideoCard. Test ids of
 * an answer: `response-card` with `data-response-id` and `data-has-modified`, `answer-video`,
 * `version-modified`, `version-original`, `action-intro`, `action-subtitles`, `action-view`,
 * `action-download`, `action-download-original`, `action-export`, `action-regenerate`. Of the merged
 * video: `merged-card`, `merged-video`, `merged-version-subtitles`, `merged-version-plain`,
 * `action-merged-subtitles`, `action-merged-download`, `action-merged-export`, `action-regenerate-merged`.
 */

interface TCommon extends Pick<VideoCardProps, 'onReload'> {
  /**
   * Publishing (issue 19), when offered: each playable version gets a Publish button (`action-publish`,
   * `action-merged-publish`). With the customer's approval required (issue 29), `gate` says what stands
   * before Publish and `askApproval` asks for it.
   */
  publishing?:
    | {
        ready: boolean;
        isPublished: (target: TPublishTarget) => boolean;
        open: (item: PublishItem) => void;
        gate?: (target: TPublishTarget) => TApprovalGate | null;
        askApproval?: (item: PublishItem) => void;
      }
    | undefined;
  /**
   * The customer withdrew their consent (issue 29): why the studio is closed. Every action is disabled,
   * nothing can be published, and the card says why.
   */
  locked?: string | null | undefined;
  /**
   * A viewer (issue 32, decision 219): only watching, downloading and reading transcripts. The actions
   * that start work and the Publish buttons are left out.
   */
  readOnly?: boolean | undefined;
}

/** What a viewer keeps: watching, reading the transcript and downloading. */
const VIEWER_ACTIONS = new Set(['action-view', 'action-download', 'action-merged-download', 'action-draft-download']);

/** The card's actions, less those a viewer cannot start. */
const forRole = (readOnly: boolean | undefined, actions: CardAction[]): CardAction[] =>
  readOnly ? actions.filter((action) => VIEWER_ACTIONS.has(action.testId)) : actions;

/** A version's publish state and dialog, when it plays and publishing is offered. */
function publishOf(publishing: TCommon['publishing'], target: TPublishTarget | null, title: string, version: string, note?: string): CardVersion['publish'] {
  if (!publishing || !target) return undefined;
  const item = { target, title, version, ...(note ? { note } : {}) };
  const published = publishing.isPublished(target);
  const gate = published ? null : (publishing.gate?.(target) ?? null);
  return {
    published,
    onOpen: () => publishing.open(item),
    ...(gate && publishing.askApproval ? { gate, onAsk: () => publishing.askApproval?.(item) } : {}),
  };
}

const publishAction = (t: TFunction, testId: string, disabled: boolean): VideoCardProps['publishAction'] => ({
  testId,
  label: t('testimonialDetail.actions.publish'),
  publishedLabel: t('testimonialDetail.actions.share'),
  publishedBadge: t('testimonialDetail.publish.badge'),
  disabled,
});

/**
 * The stored exports of a card (decision 161): the latest export of each format and version the detail
 * lists (`exports`), each with its format, the version it was cut from, its download under a name that
 * says the customer, the answer and the format, and, when publishing is offered, its Publish button: an
 * export is a render's output, named by its job like any other (decision 149).
 */
function exportsOf(
  t: TFunction,
  input: {
    publishing: TCommon['publishing'];
    busy: boolean;
    title: string;
    exports: TStoredExport[] | undefined;
    /** The card's name of the version an export was cut from. */
    version: (videoType: TExportVideoType) => string;
    fileName: (item: TStoredExport) => string;
  },
): VideoCardProps['exports'] {
  const items = (input.exports ?? []).map((item): CardExport => {
    const spec = EXPORT_PLATFORM_SPECS[item.platform];
    // The format's name in the person's language (the export dialog's), with its ratio.
    const format = `${t(`exportVideo.platform.${item.platform}`)} (${spec.aspect})`;
    const version = input.version(item.videoType);
    return {
      testId: `export-${item.platform}-${item.videoType}`,
      format,
      version,
      url: item.video_url,
      poster: item.poster_url,
      fileName: input.fileName(item),
      publish: publishOf(input.publishing, { kind: 'render', url: item.video_url }, input.title, t('testimonialDetail.exports.publishVersion', { format, version })),
    };
  });
  return items.length > 0 ? { title: t('testimonialDetail.exports.title'), downloadLabel: t('testimonialDetail.actions.download'), items, disabled: input.busy } : undefined;
}

export interface AnswerCardInput extends TCommon {
  response: TTestimonialResponse;
  customerName: string;
  /** A job runs on the testimonial or on any answer: every action is disabled (spec §4). */
  busy: boolean;
  /** `trim`: opens the trim editor (issue 31, decision 201), offered once the answer plays. */
  on: { intro: () => void; subtitles: () => void; view: () => void; export: () => void; regenerate: () => void; trim?: () => void };
}

/** One answer: its question and position, the enhanced version first, and the actions of the matrix (§4). */
export function answerCard(t: TFunction, input: AnswerCardInput): VideoCardProps {
  const { response, customerName, on, onReload, locked } = input;
  // A withdrawn testimonial: nothing can be started, downloaded or published (the server refuses anyway).
  const busy = input.busy || Boolean(locked);
  const publishing = locked || input.readOnly ? undefined : input.publishing;
  if (response.removal_requested_at) return removedCard(t, input, response.removal_requested_at);
  const actions = responseActions(response);
  const modifiedUrl = response.modified_video_url;
  const position = t('testimonialDetail.answer.position', { position: response.orderPosition });
  const prepared = mediaStatus(response) === 'ready';
  const button = (show: boolean, action: CardAction): CardAction[] => (show ? [action] : []);
  const item = `${position} · ${response.question.text}`;

  return {
    'data-testid': 'response-card',
    data: { 'data-response-id': response.id, 'data-has-modified': modifiedUrl ? 'true' : 'false' },
    layout: 'stacked',
    heading: {
      id: `question-${response.id}`,
      level: 'h3',
      title: response.question.text,
      eyebrow: position,
      mark: (
        <span
          className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-50 text-xs font-semibold text-brand-800 ring-1 ring-brand-200 tabular-nums"
          aria-hidden="true"
        >
          {response.orderPosition}
        </span>
      ),
    },
    versions: [
      {
        value: 'modified',
        label: t('testimonialDetail.answer.enhanced'),
        url: modifiedUrl,
        poster: response.modified_poster_url ?? null,
        fileName: downloadName(customerName, `${response.orderPosition}-enhanced`, modifiedUrl ?? ''),
        testId: 'version-modified',
        publish: publishOf(publishing, modifiedUrl ? { kind: 'render', url: modifiedUrl } : null, item, t('testimonialDetail.answer.enhanced')),
      },
      {
        value: 'original',
        label: t('testimonialDetail.answer.original'),
        url: response.video_url,
        poster: response.poster_url ?? null,
        duration: response.duration_seconds ?? null,
        fileName: downloadName(customerName, `${response.orderPosition}-original`, response.video_url ?? ''),
        testId: 'version-original',
        // The recording as it is: a trim applies to the videos made from it (decision 201), and the dialog says so.
        publish: publishOf(
          publishing,
          response.video_url ? { kind: 'response', responseId: response.id } : null,
          item,
          t('testimonialDetail.answer.original'),
          response.trim_start != null || response.trim_end != null ? t('testimonialDetail.publish.wholeRecording') : undefined,
        ),
      },
    ],
    versionLabel: t('testimonialDetail.answer.versionLabel'),
    singleVersionNote: t('testimonialDetail.answer.originalOnly'),
    badges: [
      ...(modifiedUrl
        ? [
            ...(response.intro_generated ? [t('testimonialDetail.answer.introBadge')] : []),
            ...(response.has_subtitles ? [t('testimonialDetail.answer.subtitlesBadge')] : []),
          ]
        : []),
      ...(response.trim_start != null || response.trim_end != null ? [t('testimonialDetail.answer.trimmedBadge')] : []),
    ],
    videoTestId: 'answer-video',
    playerLabel: `${position}: ${response.question.text}`,
    media: prepared ? undefined : <AnswerMedia response={response} />,
    noVideoText: t(locked ? 'testimonialDetail.control.noVideo' : 'testimonialDetail.answer.noVideo'),
    status: locked ? (
      <StudioLockedNote text={locked} />
    ) : response.render_state && response.render_state.phase !== 'ready' ? (
      <RenderStatus state={response.render_state} />
    ) : undefined,
    actions: forRole(input.readOnly, [
      ...button(actions.view, { testId: 'action-view', label: t('testimonialDetail.actions.view'), icon: <EyeIcon className="size-4" />, disabled: busy, onClick: on.view }),
      ...button(actions.download, {
        testId: 'action-download',
        label: t('testimonialDetail.actions.download'),
        disabled: busy,
        download: { url: modifiedUrl, fileName: downloadName(customerName, `${response.orderPosition}-enhanced`, modifiedUrl ?? '') },
      }),
      ...button(actions.export, { testId: 'action-export', label: t('testimonialDetail.actions.export'), icon: <ExportIcon className="size-4" />, disabled: busy, onClick: on.export }),
      ...button(actions.intro, {
        testId: 'action-intro',
        label: t('testimonialDetail.actions.intro'),
        icon: <IntroIcon className="size-4" />,
        variant: modifiedUrl ? 'secondary' : 'primary',
        disabled: busy,
        onClick: on.intro,
      }),
      ...button(actions.subtitles, {
        testId: 'action-subtitles',
        label: t('testimonialDetail.actions.subtitles'),
        icon: <SubtitlesIcon className="size-4" />,
        disabled: busy,
        onClick: on.subtitles,
      }),
      ...button(Boolean(on.trim && prepared && response.video_url), {
        testId: 'action-trim',
        label: t('testimonialDetail.actions.trim'),
        icon: <ScissorsIcon className="size-4" />,
        variant: 'ghost',
        disabled: busy,
        onClick: () => on.trim?.(),
      }),
      ...button(actions.regenerate, {
        testId: 'action-regenerate',
        label: t('testimonialDetail.actions.regenerate'),
        icon: <RegenerateIcon className="size-4" />,
        variant: 'ghost',
        disabled: busy,
        onClick: on.regenerate,
      }),
    ]),
    publishAction: publishAction(t, 'action-publish', busy || !publishing?.ready),
    exports: exportsOf(t, {
      publishing,
      busy,
      title: item,
      exports: response.exports,
      version: (videoType) => t(videoType === 'modified' ? 'testimonialDetail.answer.enhanced' : 'testimonialDetail.answer.original'),
      fileName: (item) => exportFileName(customerName, { question: response.orderPosition }, item),
    }),
    footerAction: actions.downloadOriginal
      ? {
          disabled: Boolean(locked),
          testId: 'action-download-original',
          label: t('testimonialDetail.actions.downloadOriginal'),
          download: {
            url: response.video_url,
            fileName: downloadName(customerName, `${response.orderPosition}-original`, response.video_url ?? ''),
          },
        }
      : undefined,
    onReload,
  };
}

export interface MergedCardInput extends TCommon {
  testimonial: TTestimonialRequest;
  busy: boolean;
  /** An answer is still being prepared: no subtitles for the merged video yet. */
  preparing: boolean;
  on: { subtitles: () => void; export: () => void; regenerate: () => void };
}

/** The merged video of every answer (spec §2, §4): the subtitled version first; download, export, regenerate. */
export function mergedCard(t: TFunction, input: MergedCardInput): VideoCardProps {
  const { testimonial, preparing, on, onReload, locked } = input;
  const busy = input.busy || Boolean(locked);
  const publishing = locked || input.readOnly ? undefined : input.publishing;
  const actions = mergedActions(testimonial);
  const title = t('testimonialDetail.merged.title');
  const name = (part: string, url: string | null) => downloadName(testimonial.customer_name, part, url ?? '');
  const button = (show: boolean, action: CardAction): CardAction[] => (show ? [action] : []);

  return {
    'data-testid': 'merged-card',
    layout: 'wide',
    heading: {
      id: 'merged-title',
      level: 'h2',
      title,
      mark: (
        <span className="flex size-8 shrink-0 items-center justify-center rounded-control bg-brand-50 text-brand-700 ring-1 ring-brand-200">
          <MergeIcon className="size-4" />
        </span>
      ),
    },
    description: t('testimonialDetail.merged.description', { count: testimonial.testimonial_responses.length }),
    versions: [
      {
        value: 'subtitles',
        label: t('testimonialDetail.merged.withSubtitles'),
        url: testimonial.video_url_subtitles,
        poster: testimonial.merged_subtitles_poster_url ?? null,
        fileName: name('merged-subtitles', testimonial.video_url_subtitles),
        testId: 'merged-version-subtitles',
        publish: publishOf(
          publishing,
          testimonial.video_url_subtitles ? { kind: 'render', url: testimonial.video_url_subtitles } : null,
          title,
          t('testimonialDetail.merged.withSubtitles'),
        ),
      },
      {
        value: 'plain',
        label: t('testimonialDetail.merged.withoutSubtitles'),
        url: testimonial.video_url,
        poster: testimonial.merged_poster_url ?? null,
        fileName: name('merged', testimonial.video_url),
        testId: 'merged-version-plain',
        publish: publishOf(publishing, testimonial.video_url ? { kind: 'render', url: testimonial.video_url } : null, title, t('testimonialDetail.merged.withoutSubtitles')),
      },
    ],
    versionLabel: t('testimonialDetail.answer.versionLabel'),
    badges: testimonial.has_subtitles ? [t('testimonialDetail.answer.subtitlesBadge')] : [],
    videoTestId: 'merged-video',
    playerLabel: title,
    noVideoText: t(locked ? 'testimonialDetail.control.noVideo' : 'testimonialDetail.answer.noVideo'),
    status: locked ? (
      <StudioLockedNote text={locked} />
    ) : testimonial.render_state && testimonial.render_state.phase !== 'ready' ? (
      <RenderStatus state={testimonial.render_state} />
    ) : undefined,
    actions: forRole(input.readOnly, [
      ...button(actions.subtitles, {
        testId: 'action-merged-subtitles',
        label: t('testimonialDetail.actions.mergedSubtitles'),
        icon: <SubtitlesIcon className="size-4" />,
        variant: 'primary',
        disabled: busy || preparing,
        onClick: on.subtitles,
      }),
      ...button(actions.download, { testId: 'action-merged-download', label: t('testimonialDetail.actions.download'), disabled: busy, downloadShown: true }),
      ...button(actions.export, { testId: 'action-merged-export', label: t('testimonialDetail.actions.export'), icon: <ExportIcon className="size-4" />, disabled: busy, onClick: on.export }),
      ...button(actions.regenerate, {
        testId: 'action-regenerate-merged',
        label: t('testimonialDetail.actions.regenerate'),
        icon: <RegenerateIcon className="size-4" />,
        variant: 'ghost',
        disabled: busy,
        onClick: on.regenerate,
      }),
    ]),
    publishAction: publishAction(t, 'action-merged-publish', busy || !publishing?.ready),
    // The merged video's enhanced export is cut from the subtitled version (the export dialog's choice).
    exports: exportsOf(t, {
      publishing,
      busy,
      title,
      exports: testimonial.exports,
      version: (videoType) => t(videoType === 'modified' ? 'testimonialDetail.merged.withSubtitles' : 'testimonialDetail.merged.withoutSubtitles'),
      fileName: (item) => exportFileName(testimonial.customer_name, 'merged', item),
    }),
    onReload,
  };
}

/**
 * An answer the customer asked to remove (issue 29): its question, and in place of the player what
 * happened; no version, no action, no export (the server leaves it out of everything).
 */
function removedCard(t: TFunction, { response, customerName, onReload }: AnswerCardInput, at: string): VideoCardProps {
  const position = t('testimonialDetail.answer.position', { position: response.orderPosition });
  return {
    'data-testid': 'response-card',
    data: { 'data-response-id': response.id, 'data-has-modified': 'false', 'data-removed': 'true' },
    layout: 'stacked',
    heading: {
      id: `question-${response.id}`,
      level: 'h3',
      title: response.question.text,
      eyebrow: position,
      mark: (
        <span
          className="flex size-7 shrink-0 items-center justify-center rounded-full bg-gray-100 text-xs font-semibold text-gray-600 ring-1 ring-gray-200 tabular-nums"
          aria-hidden="true"
        >
          {response.orderPosition}
        </span>
      ),
    },
    versions: [],
    versionLabel: t('testimonialDetail.answer.versionLabel'),
    videoTestId: 'answer-video',
    playerLabel: `${position}: ${response.question.text}`,
    media: <RemovedAnswer at={at} customerName={customerName} />,
    noVideoText: t('testimonialDetail.answer.noVideo'),
    actions: [],
    onReload,
  };
}

// Issue 31: the draft's card (draft-card.tsx) publishes like the others.
export { publishAction, publishOf, type TCommon };
