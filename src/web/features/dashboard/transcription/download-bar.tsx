import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from './transcription-files';
import { DownloadIcon } from '../../../components/icons';

export interface DownloadBarProps {
  /** The formats offered, in this order (default: .txt, .json, .srt). */
  formats?: readonly TranscriptFormat[];
  onDownload: (format: TranscriptFormat) => void;
  disabled?: boolean;
  /** The id of the text that says why the downloads are disabled. */
  describedBy?: string | undefined;
}

/** The download buttons of a review (test ids `download-txt`, `download-json`, `download-srt`). */
export function DownloadBar({ formats = TRANSCRIPT_FORMATS, onDownload, disabled = false, describedBy }: DownloadBarProps) {
  const { t } = useTranslation();
  return (
    <div role="group" aria-label={t('transcription.downloadsLabel')} className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-3">
      <span className="text-sm font-medium text-gray-700" aria-hidden="true">
        {t('transcription.downloadsLabel')}
      </span>
      <div className="flex flex-wrap gap-2">
        {formats.map((format) => (
          <Button
            key={format}
            variant="secondary"
            size="sm"
            disabled={disabled}
            aria-describedby={disabled ? describedBy : undefined}
            aria-label={t(`transcription.downloadAria.${format}`)}
            leadingIcon={<DownloadIcon className="size-4 shrink-0" />}
            onClick={() => onDownload(format)}
            data-testid={`download-${format}`}
          >
            {/* Phones show the extension alone; the accessible name is always the full one. */}
            <span className="sm:hidden">.{format}</span>
            <span className="hidden sm:inline">{t(`transcription.download.${format}`)}</span>
          </Button>
        ))}
      </div>
    </div>
  );
}
