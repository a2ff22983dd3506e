import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import type { ButtonVariant } from '../../../components/button';
import { Card } from '../../../components/card';
import { ClockIcon, ExportIcon, GlobeIcon, ShieldCheckIcon } from '../../../components/icons';
import type { TApprovalGate } from './customer-control';
import { cn } from '../../../lib/cn';
import { DownloadLink, VersionToggle } from './studio-controls';
import { Duration, PanelErrorBoundary, VideoPlayer } from './video-player';

/** One version of the card's video (enhanced / original, with / without subtitles). */
export interface CardVersion {
  value: string;
  /** Its name in the version toggle. */
  label: string;
  url: string | null;
  /** A frame of this version, shown until it plays (phones show a black box without one). */
  poster?: string | null;
  /** Its length in seconds when the server knows it (probed from the stored file); else the player's. */
  duration?: number | null;
  /** The name a download of this version gets. */
  fileName: string;
  testId: string;
  /** Publishing this version (issue 19): whether it is published, and the dialog of its page. */
  publish?: TCardPublish;
}

/**
 * A video's publishing: whether it is published, the dialog of its page, and, when the customer must
 * approve it first (issue 29), what stands before Publish (`gate`) and the call that asks them.
 */
export interface TCardPublish {
  published: boolean;
  onOpen: () => void;
  gate?: TApprovalGate;
  onAsk?: () => void;
}

/**
 * A stored export of the card's video (a social crop): its format and version, its download, and its
 * Publish button when publishing is offered.
 */
export interface CardExport {
  /** Test id of its row: `export-<platform>-<version>` (`export-shorts-modified`, `export-linkedin-original`). */
  testId: string;
  /** Its format, e.g. 'Shorts / Stories (9:16)'. */
  format: string;
  /** Which version it was cut from, e.g. 'Enhanced'. */
  version: string;
  url: string;
  poster: string | null;
  /** The name its download gets, also shown on its row (decision 161). */
  fileName: string;
  publish?: TCardPublish;
}

/** An action under the video: a button, or a download of a given address or of the version shown. */
export type CardAction = {
  testId: string;
  label: string;
  icon?: ReactNode;
  variant?: ButtonVariant;
  disabled?: boolean;
} & ({ onClick: () => void } | { download: { url: string | null; fileName: string } } | { downloadShown: true });

export interface VideoCardProps {
  'data-testid': string;
  /** More data attributes on the card (`data-response-id`…). */
  data?: Record<`data-${string}`, string>;
  /** 'stacked' (an answer: heading, video, details) or 'wide' (the merged video beside its details). */
  layout: 'stacked' | 'wide';
  heading: { id: string; level: 'h2' | 'h3'; title: string; eyebrow?: string; mark: ReactNode };
  description?: string;
  /** The versions in order of preference; the toggle shows when more than one has an address. */
  versions: CardVersion[];
  versionLabel: string;
  /** Said instead of the toggle when there is one version only. */
  singleVersionNote?: string;
  /** Badges beside the duration (intro, subtitles). */
  badges?: string[];
  videoTestId: string;
  playerLabel: string;
  /** Shown in place of the player (an answer still being prepared, or failed). */
  media?: ReactNode;
  /** Said in place of the player when no version has an address. */
  noVideoText: string;
  /** The last render's state. */
  status?: ReactNode;
  actions: CardAction[];
  /**
   * The Publish button of the version shown, when that version can be published: 'Publish', or 'Share'
   * with a 'Published' badge once it is. Its test id, with `data-published`.
   */
  publishAction?: { testId: string; label: string; publishedLabel: string; publishedBadge: string; disabled?: boolean };
  /** The stored exports, in a list under the actions: its heading and the download's label. */
  exports?: { title: string; downloadLabel: string; items: CardExport[]; disabled?: boolean };
  /** A quieter action in a strip at the bottom (the original's download). */
  footerAction?: CardAction;
  onReload: () => void;
}

/**
 * The card of an answer and of the merged video alike (spec §2, §4): a heading, the player with a
 * version toggle and the video's length, the state of its last render, and its actions. What differs
 * between the two comes in as props (card-content.tsx builds them).
 */
export function VideoCard(props: VideoCardProps) {
  const { layout, heading, versions, onReload } = props;
  const [chosen, setChosen] = useState(versions[0]?.value ?? '');
  const [played, setPlayed] = useState<{ url: string; seconds: number } | null>(null);
  const available = versions.filter((version) => version.url);
  const shown = available.find((version) => version.value === chosen) ?? available[0] ?? null;
  // The stored file's length, else what the player read from the same file once it loaded.
  const duration = shown?.duration ?? (played && played.url === shown?.url ? played.seconds : null);
  const wide = layout === 'wide';
  const Title = heading.level;
  const publish = props.publishAction && shown?.publish ? { ...props.publishAction, ...shown.publish } : null;
  // Publish sits with the main actions, before the quieter (ghost) ones.
  const firstGhost = props.actions.findIndex((action) => action.variant === 'ghost');
  const split = firstGhost === -1 ? props.actions.length : firstGhost;

  const head = (
    <div className={cn('flex items-start gap-3', !wide && 'px-4 pt-4 pb-3 sm:px-5')}>
      {heading.mark}
      <div className="min-w-0 flex-1">
        {heading.eyebrow && <p className="text-xs font-medium text-gray-500">{heading.eyebrow}</p>}
        <Title id={heading.id} className={cn('font-semibold break-words text-gray-900', wide ? 'text-base' : 'mt-0.5 text-sm')}>
          {heading.title}
        </Title>
        {props.description && <p className="mt-2 text-sm text-gray-600">{props.description}</p>}
      </div>
    </div>
  );

  const player = props.media ?? (
    <PanelErrorBoundary fallback={<div className="aspect-video w-full bg-gray-950" />}>
      {shown?.url ? (
        <VideoPlayer
          url={shown.url}
          poster={shown.poster ?? null}
          label={props.playerLabel}
          data-testid={props.videoTestId}
          onReload={onReload}
          onDuration={(seconds) => setPlayed({ url: shown.url!, seconds })}
          className={wide ? 'lg:h-full lg:aspect-auto lg:min-h-64' : undefined}
        />
      ) : (
        <div className="flex aspect-video w-full items-center justify-center bg-gray-950 px-6 text-center text-sm text-gray-300">
          {props.noVideoText}
        </div>
      )}
    </PanelErrorBoundary>
  );

  return (
    <Card
      padding="none"
      className="flex flex-col overflow-hidden"
      data-testid={props['data-testid']}
      {...props.data}
      aria-labelledby={heading.id}
      role="group"
    >
      <div className={wide ? 'grid lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]' : 'flex flex-1 flex-col'}>
        {!wide && head}
        {player}
        {(wide || !props.media || props.status || props.actions.length > 0) && (
          <div className={cn('flex flex-1 flex-col gap-3', wide ? 'p-4 sm:p-5' : 'px-4 py-3 sm:px-5')}>
            {wide && head}
            {!props.media && (
              <div className="flex min-h-7 flex-wrap items-center justify-between gap-2">
                {available.length > 1 && shown ? (
                  <VersionToggle
                    label={props.versionLabel}
                    value={shown.value}
                    onChange={setChosen}
                    options={available.map(({ value, label, testId }) => ({ value, label, testId }))}
                  />
                ) : (
                  <span className="text-xs text-gray-500">{props.singleVersionNote}</span>
                )}
                <div className="flex items-center gap-2">
                  {publish?.published && (
                    <Badge tone="completed" dot data-testid="published-badge">
                      {publish.publishedBadge}
                    </Badge>
                  )}
                  {props.badges?.map((badge) => (
                    <Badge key={badge} tone="brand">
                      {badge}
                    </Badge>
                  ))}
                  <Duration seconds={duration} />
                </div>
              </div>
            )}
            {props.status}
            {(props.actions.length > 0 || publish) && (
              <div className="mt-auto flex flex-wrap gap-2 pt-1">
                {props.actions.slice(0, split).map((action) => (
                  <ActionControl key={action.testId} action={action} shown={shown} />
                ))}
                {publish && <ApprovalGateControl publish={publish} />}
                {publish && <PublishButton publish={publish} testId={publish.testId} />}
                {props.actions.slice(split).map((action) => (
                  <ActionControl key={action.testId} action={action} shown={shown} />
                ))}
              </div>
            )}
            {publish?.gate && <ApprovalGateNote gate={publish.gate} />}
          </div>
        )}
      </div>
      {props.exports && props.exports.items.length > 0 && (
        <ExportList {...props.exports} publishAction={props.publishAction} />
      )}
      {props.footerAction && (
        <div className="border-t border-gray-100 bg-gray-50/60 px-4 py-2 sm:px-5">
          <ActionControl action={{ variant: 'ghost', ...props.footerAction }} shown={shown} className="-ml-3" />
        </div>
      )}
    </Card>
  );
}

function ActionControl({ action, shown, className }: { action: CardAction; shown: CardVersion | null; className?: string }) {
  const variant = action.variant ?? 'secondary';
  if ('onClick' in action) {
    return (
      <Button
        size="sm"
        variant={variant}
        leadingIcon={action.icon}
        disabled={action.disabled}
        onClick={action.onClick}
        data-testid={action.testId}
        className={className}
      >
        {action.label}
      </Button>
    );
  }
  const target = 'download' in action ? action.download : { url: shown?.url ?? null, fileName: shown?.fileName ?? '' };
  return (
    <DownloadLink url={target.url} fileName={target.fileName} variant={variant} disabled={action.disabled} data-testid={action.testId} className={className}>
      {action.label}
    </DownloadLink>
  );
}

/**
 * The stored exports under the card's actions: one row each, its poster in the export's shape, its
 * format, version and download name, then Download and (when publishing is offered) Publish, or Share with a
 * 'Published' badge once it is published. On a phone, and on an answer's card in the grid, the buttons
 * wrap under the name.
 */
function ExportList({
  title,
  downloadLabel,
  items,
  disabled,
  publishAction,
}: NonNullable<VideoCardProps['exports']> & { publishAction: VideoCardProps['publishAction'] }) {
  const titleId = useId();
  return (
    <div className="border-t border-gray-100 px-4 py-3 sm:px-5" data-testid="export-list">
      <p id={titleId} className="text-xs font-medium text-gray-500">
        {title}
      </p>
      <ul aria-labelledby={titleId} className="mt-1 divide-y divide-gray-100">
        {items.map((item) => {
          const name = `${item.format} · ${item.version}`;
          const publish = publishAction && item.publish ? { ...publishAction, ...item.publish } : null;
          return (
            <li key={item.testId} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-2" data-testid={item.testId}>
              {/* Wide enough for the format and the download name on one line each; narrower (a phone, an answer's card in the grid), the buttons wrap under. */}
              <div className="flex min-w-0 flex-1 basis-72 items-center gap-3">
                <span className="flex size-10 shrink-0 items-center justify-center overflow-hidden rounded-control bg-gray-950" aria-hidden="true">
                  {item.poster ? (
                    <img src={item.poster} alt="" className="max-h-full max-w-full object-contain" loading="lazy" />
                  ) : (
                    <ExportIcon className="size-4 text-gray-400" />
                  )}
                </span>
                <div className="min-w-0">
                  <p className="text-sm leading-snug font-medium text-gray-900 tabular-nums">{item.format}</p>
                  <p className="flex items-center gap-2 text-xs text-gray-500">
                    {item.version}
                    {publish?.published && (
                      <Badge tone="completed" dot data-testid="export-published-badge">
                        {publish.publishedBadge}
                      </Badge>
                    )}
                  </p>
                  {/* Written as it is saved: Inter's contextual alternates would draw the x of 9x16 as ×. */}
                  <p className="truncate text-xs text-gray-500 [font-variant-ligatures:no-contextual]" title={item.fileName} data-testid="export-file-name">
                    {item.fileName}
                  </p>
                </div>
              </div>
              <div className="flex shrink-0 gap-2">
                <DownloadLink url={item.url} fileName={item.fileName} disabled={disabled} data-testid="export-download">
                  {downloadLabel}
                  <span className="sr-only"> ({name})</span>
                </DownloadLink>
                {publish && (
                  <ApprovalGateControl publish={publish}>
                    <span className="sr-only"> ({name})</span>
                  </ApprovalGateControl>
                )}
                {publish && (
                  <PublishButton publish={publish} testId="export-publish">
                    <span className="sr-only"> ({name})</span>
                  </PublishButton>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** Publish, or Share once published: opens the publish dialog for the video it belongs to. */
function PublishButton({
  publish,
  testId,
  children,
}: {
  publish: { label: string; publishedLabel: string; published: boolean; disabled?: boolean | undefined; onOpen: () => void };
  testId: string;
  children?: ReactNode;
}) {
  return (
    <Button
      size="sm"
      variant="secondary"
      leadingIcon={<GlobeIcon className="size-4" />}
      onClick={publish.onOpen}
      disabled={publish.disabled}
      aria-haspopup="dialog"
      data-testid={testId}
      data-published={publish.published ? 'true' : 'false'}
    >
      {publish.published ? publish.publishedLabel : publish.label}
      {children}
    </Button>
  );
}

/**
 * Before Publish, when the customer must approve this video first (issue 29): "Ask for approval" (or
 * "Ask again" after changes were asked), or "Awaiting approval" once asked. Publish stays beside it: the
 * server refuses it with the reason until the customer approves. Test ids `ask-approval`, `approval-awaiting`.
 */
function ApprovalGateControl({ publish, children }: { publish: TCardPublish; children?: ReactNode }) {
  const { t } = useTranslation();
  if (!publish.gate || publish.published) return null;
  if (publish.gate === 'pending') {
    return (
      <span
        className="inline-flex items-center gap-1.5 rounded-control bg-pending-50 px-2.5 py-1 text-xs font-medium text-pending-800 ring-1 ring-pending-200 ring-inset"
        data-testid="approval-awaiting"
      >
        <ClockIcon className="size-3.5" />
        {t('testimonialDetail.approval.state.pending')}
        {children}
      </span>
    );
  }
  return (
    <Button size="sm" variant="secondary" leadingIcon={<ShieldCheckIcon className="size-4" />} onClick={publish.onAsk} aria-haspopup="dialog" data-testid="ask-approval">
      {t(publish.gate === 'changes' ? 'testimonialDetail.approval.askAgain' : 'testimonialDetail.approval.ask')}
      {children}
    </Button>
  );
}

/** Why Publish waits, in a sentence under the card's actions. Test id `approval-gate-note` with data-gate. */
function ApprovalGateNote({ gate }: { gate: TApprovalGate }) {
  const { t } = useTranslation();
  return (
    <p className="text-xs text-gray-600" data-testid="approval-gate-note" data-gate={gate}>
      {t(`testimonialDetail.approval.gate.${gate}`)}
    </p>
  );
}
