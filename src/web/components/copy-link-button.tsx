import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from './button';
import type { ButtonSize, ButtonVariant } from './button';
import { CheckIcon, LinkIcon, ShareIcon } from './icons';
import { cn } from '../lib/cn';
import { copyBySelection, useCopied } from '../lib/use-copied';

interface CopyLinkButtonProps {
  /** The link to copy or share. */
  url: string;
  /** Whose link it is, for the buttons' accessible names ("Copy Léa's link"). */
  name: string;
  /** The share sheet's title (the text sent along with the link). */
  shareText: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  /** Test ids: `${testId}` for Copy link, `${testId}-share` for Share. */
  testId: string;
}

/**
 * A request's private link, to send by SMS or WhatsApp (issue 27, item 11): "Copy link", which says
 * "Link copied" for a moment (and announces it), and "Share" with the system's share sheet where the
 * browser has one (phones). Without clipboard access the person is told to copy the link by hand.
 */
export function CopyLinkButton({ url, name, shareText, variant = 'secondary', size = 'sm', className, testId }: CopyLinkButtonProps) {
  const { t } = useTranslation();
  const { copied, copy: copyText } = useCopied(copyBySelection);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';

  const copy = async () => {
    if (!(await copyText(url))) toast.error(t('requests.link.copyFailed'));
  };

  const share = async () => {
    try {
      await navigator.share({ title: shareText, text: shareText, url });
    } catch (error) {
      // Closing the sheet is not an error; anything else falls back to copying.
      if (!(error instanceof DOMException && error.name === 'AbortError')) await copy();
    }
  };

  return (
    <div className={cn('inline-flex items-center gap-2', className)}>
      <Button
        variant={variant}
        size={size}
        onClick={() => void copy()}
        leadingIcon={
          copied ? <CheckIcon className={cn('size-4', variant === 'primary' ? 'text-white' : 'text-completed-700')} /> : <LinkIcon className="size-4" />
        }
        aria-label={copied ? t('requests.link.copied') : t('requests.link.copyLabel', { name })}
        data-testid={testId}
        data-copied={copied ? 'true' : 'false'}
      >
        {copied ? t('requests.link.copied') : t('requests.link.copy')}
      </Button>
      {canShare && (
        <Button
          variant={variant}
          size={size}
          onClick={() => void share()}
          leadingIcon={<ShareIcon className="size-4" />}
          aria-label={t('requests.link.shareLabel', { name })}
          data-testid={`${testId}-share`}
        >
          {t('requests.link.share')}
        </Button>
      )}
      <span className="sr-only" aria-live="polite">
        {copied ? t('requests.link.copiedAnnouncement', { name }) : ''}
      </span>
    </div>
  );
}
