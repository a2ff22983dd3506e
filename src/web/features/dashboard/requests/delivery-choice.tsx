import { useTranslation } from 'react-i18next';
import { REQUEST_DELIVERIES } from '../../../../contract/api/requests.schema.js';
import type { TRequestDelivery } from '../../../../contract/api/requests.schema.js';
import { LinkIcon, MailIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';

const ICONS = { email: MailIcon, link: LinkIcon } as const;

interface DeliveryChoiceProps {
  value: TRequestDelivery;
  onChange: (value: TRequestDelivery) => void;
}

/**
 * How the private link reaches the customer (issue 27, item 11; decision 173): our invitation e-mail, or
 * copied by the company to send by SMS or WhatsApp. Two radio cards; the arrow keys move between them.
 * Test ids: `request-delivery` (data-value), `request-delivery-email`, `request-delivery-link`.
 */
export function DeliveryChoice({ value, onChange }: DeliveryChoiceProps) {
  const { t } = useTranslation();
  return (
    <fieldset className="mb-5" data-testid="request-delivery" data-value={value}>
      <legend className="mb-2 text-sm font-medium text-gray-900">{t('requests.delivery.legend')}</legend>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2 sm:gap-3">
        {REQUEST_DELIVERIES.map((option) => {
          const Icon = ICONS[option];
          const checked = value === option;
          return (
            <label
              key={option}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-control border px-3 py-3 transition-colors',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600',
                checked ? 'border-brand-600 bg-brand-50/60 ring-1 ring-brand-600' : 'border-gray-300 bg-white hover:border-gray-400',
              )}
            >
              <input
                type="radio"
                name="delivery"
                value={option}
                checked={checked}
                onChange={() => onChange(option)}
                className="sr-only"
                aria-describedby={`request-delivery-${option}-hint`}
                data-testid={`request-delivery-${option}`}
              />
              <span
                className={cn(
                  'mt-0.5 inline-flex size-8 shrink-0 items-center justify-center rounded-full',
                  checked ? 'bg-brand-600 text-white' : 'bg-gray-100 text-gray-600',
                )}
                aria-hidden="true"
              >
                <Icon className="size-4" />
              </span>
              <span className="min-w-0">
                <span className="block text-sm font-medium text-gray-900">{t(`requests.delivery.${option}`)}</span>
                <span id={`request-delivery-${option}-hint`} className="mt-0.5 block text-xs text-gray-500">
                  {t(`requests.delivery.${option}Hint`)}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
