import { useId, useRef, useState } from 'react';
import type { DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { TrashIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { cn } from '../../../lib/cn';
import { JobProgress } from '../jobs/job-progress';
import { isFollowOver } from '../jobs/use-job';
import type { JobFollow } from '../jobs/use-job';
import { SwitchField } from '../../../components/switch-field';

/** The image kinds the server stores (it recognises them by their bytes). */
const ACCEPTED = 'image/png,image/jpeg,image/webp,image/gif';

function UploadIcon({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden="true"
    >
      <path d="M12 15V4" />
      <path d="m7.5 8.5 4.5-4.5 4.5 4.5" />
      <path d="M20 15v3a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-3" />
    </svg>
  );
}

export interface LogoFieldProps {
  /** The logo as the form holds it ('' when none or removed). */
  logoUrl: string;
  /** The stored logo, to tell a pending removal apart from no logo at all. */
  savedLogoUrl: string;
  uploading: boolean;
  /**
   * The latest upload's `logo` job: while it runs, `logoUrl` is the file as uploaded, shown as
   * 'Preparing…'; a failure shows its translated reason, and another file can be picked.
   */
  job: JobFollow;
  /** The last upload problem (client check or server answer), already translated. */
  error: string | null;
  onFile: (file: File) => void;
  onRemove: () => void;
  showLogo: boolean;
  onShowLogoChange: (show: boolean) => void;
  disabled?: boolean;
}

/**
 * The company logo: the current one on a transparency grid, a drop zone with a file picker (the
 * checks of spec §5 run before anything is sent), removal, and whether videos show it.
 */
export function LogoField({
  logoUrl,
  savedLogoUrl,
  uploading,
  job,
  error,
  onFile,
  onRemove,
  showLogo,
  onShowLogoChange,
  disabled,
}: LogoFieldProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const hintId = useId();
  const errorId = useId();
  const busy = uploading || disabled;
  const preparing = job.status !== 'idle' && !isFollowOver(job);

  const take = (files: FileList | null | undefined) => {
    const file = files?.[0];
    if (file) onFile(file);
  };

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (busy) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!busy) take(event.dataTransfer.files);
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row">
        <div
          className={cn(
            'flex h-28 shrink-0 items-center justify-center overflow-hidden rounded-control border border-gray-200 sm:w-44',
            'bg-[conic-gradient(var(--color-gray-100)_25%,var(--color-white)_0_50%,var(--color-gray-100)_0_75%,var(--color-white)_0)] bg-size-[16px_16px]',
          )}
        >
          {logoUrl ? (
            <img
              src={logoUrl}
              alt={t('settings.video.logo.current')}
              className={cn('max-h-20 max-w-[85%] object-contain', preparing && 'opacity-60')}
              data-testid="logo-current"
              data-preparing={preparing ? 'true' : undefined}
            />
          ) : (
            <span className="px-3 text-center text-sm text-gray-500">{t('settings.video.logo.none')}</span>
          )}
        </div>
        <div
          onDragOver={onDragOver}
          onDragEnter={onDragOver}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="logo-dropzone"
          className={cn(
            'flex min-h-28 flex-1 flex-col items-center justify-center gap-1.5 rounded-control border-2 border-dashed px-4 py-4 text-center transition-colors',
            dragging ? 'border-brand-600 bg-brand-50' : 'border-gray-300 bg-white',
          )}
        >
          {uploading ? (
            <p role="status" className="flex items-center gap-2 text-sm text-gray-700" data-testid="logo-uploading">
              <Spinner className="size-4 text-brand-700" />
              {t('settings.video.logo.uploading')}
            </p>
          ) : (
            <>
              <UploadIcon className="size-6 text-gray-400" />
              <p className="text-sm text-gray-700">
                <span className="font-medium">
                  {dragging ? t('settings.video.logo.dropActive') : t('settings.video.logo.drop')}
                </span>{' '}
                <span className="text-gray-500">{t('settings.video.logo.or')}</span>
              </p>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => input.current?.click()}
                disabled={busy}
                aria-describedby={error ? `${hintId} ${errorId}` : hintId}
                data-testid="logo-choose"
              >
                {logoUrl ? t('settings.video.logo.replace') : t('settings.video.logo.choose')}
              </Button>
            </>
          )}
          <input
            ref={input}
            type="file"
            accept={ACCEPTED}
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(event) => {
              take(event.target.files);
              // The same file may be chosen again after an error.
              event.target.value = '';
            }}
            data-testid="logo-input"
          />
        </div>
      </div>
      <div className="-mt-1 flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1">
          <p id={hintId} className="text-sm text-gray-500">
            {t('settings.video.logo.hint')}
          </p>
          {error ? (
            <p id={errorId} role="alert" className="mt-1 text-sm text-error-700" data-testid="logo-error">
              {error}
            </p>
          ) : null}
          {job.status !== 'idle' && job.status !== 'ready' ? (
            <JobProgress follow={job} label={t('settings.video.logo.preparing')} className="mt-2 max-w-sm" data-testid="logo-job" />
          ) : null}
          {!logoUrl && savedLogoUrl ? (
            <p role="status" className="mt-1 text-sm text-pending-800">
              {t('settings.video.logo.removed')}
            </p>
          ) : null}
        </div>
        {logoUrl ? (
          <Button
            variant="ghost"
            size="sm"
            onClick={onRemove}
            disabled={busy}
            leadingIcon={<TrashIcon className="size-4" />}
            data-testid="logo-remove"
          >
            {t('settings.video.logo.remove')}
          </Button>
        ) : null}
      </div>
      <SwitchField
        label={t('settings.video.logo.show')}
        hint={logoUrl ? t('settings.video.logo.showHint') : t('settings.video.logo.showNeedsLogo')}
        checked={showLogo}
        onCheckedChange={onShowLogoChange}
        disabled={disabled}
        id="settings-show_logo_in_videos"
        data-testid="show-logo-switch"
      />
    </div>
  );
}
