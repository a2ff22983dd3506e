import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TTestimonialRequestSafe } from '../../../../contract/api/testimonials.schema.js';
import { Button } from '../../../components/button';
import { CopyLinkButton } from '../../../components/copy-link-button';
import { CheckCircleIcon } from '../../../components/icons';

interface LinkReadyProps {
  request: TTestimonialRequestSafe;
  companyName: string;
  onDismiss: () => void;
}

/**
 * After a request made with "Copy the link myself" (issue 27, item 11): its private link, with Copy and
 * Share, until the person closes it. Test ids: `request-link-ready`, `request-link-value`,
 * `request-link-copy`, `request-link-copy-share`, `request-link-dismiss`.
 */
export function LinkReady({ request, companyName, onDismiss }: LinkReadyProps) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <section
      className="mb-4 rounded-card border border-completed-200 bg-completed-50 p-4 sm:p-5"
      aria-labelledby={`${id}-title`}
      data-testid="request-link-ready"
    >
      <div className="flex items-start gap-3">
        <CheckCircleIcon className="mt-0.5 size-5 shrink-0 text-completed-700" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <h3 id={`${id}-title`} className="text-sm font-semibold text-gray-950">
            {t('requests.link.readyTitle', { name: request.customer_name })}
          </h3>
          <p className="mt-1 text-sm text-gray-700">{t('requests.link.readyDescription')}</p>
          <label htmlFor={`${id}-link`} className="sr-only">
            {t('requests.link.label')}
          </label>
          <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
            <input
              id={`${id}-link`}
              readOnly
              value={request.link}
              onFocus={(event) => event.currentTarget.select()}
              className="h-10 w-full min-w-0 rounded-control border border-gray-300 bg-white px-3 font-mono text-xs text-gray-900 focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600"
              data-testid="request-link-value"
            />
            <div className="flex shrink-0 items-center justify-between gap-2">
              <CopyLinkButton
                url={request.link}
                name={request.customer_name}
                shareText={t('requests.link.shareText', { company: companyName })}
                variant="primary"
                size="md"
                testId="request-link-copy"
              />
              <Button variant="ghost" onClick={onDismiss} data-testid="request-link-dismiss">
                {t('requests.link.dismiss')}
              </Button>
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}
