import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { RefreshIcon } from '../../../components/icons';
import { refusalDetail } from './review-errors';

/** A failed 'generate' of either review: the §8 message, the server's reason, and a retry. */
export function GenerateError({ title, error, onRetry, ref }: { title: string; error: unknown; onRetry: () => void; ref?: Ref<HTMLDivElement> }) {
  const { t } = useTranslation();
  return (
    <div ref={ref}>
      <Alert
        tone="error"
        title={title}
        data-testid="generate-error"
        action={
          <Button variant="secondary" size="sm" leadingIcon={<RefreshIcon className="size-4" />} onClick={onRetry}>
            {t('dashboard.common.retry')}
          </Button>
        }
      >
        {refusalDetail(error, t)}
      </Alert>
    </div>
  );
}
