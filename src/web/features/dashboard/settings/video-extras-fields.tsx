import { useTranslation } from 'react-i18next';
import { END_CARD_LIMITS } from '../../../../contract/constants.js';
import { SwitchField } from '../../../components/switch-field';
import { TextField } from '../../../components/text-field';
import type { TStyleField, TStyleForm } from './settings-form';

type TExtrasField = 'lower_third' | 'end_card' | 'end_card_text' | 'end_card_address';

interface VideoExtrasFieldsProps {
  form: Pick<TStyleForm, TExtrasField>;
  errorOf: (field: TStyleField) => string | undefined;
  onChange: <F extends TExtrasField>(field: F, value: TStyleForm[F]) => void;
  onBlur: (field: TStyleField) => void;
  /** Which frame the preview should show while a field has the focus. */
  onShow?: (frame: 'lowerThird' | 'endCard') => void;
}

/** Characters typed out of the limit, shown beside the label (and announced with the field). */
function Counter({ id, length, max }: { id: string; length: number; max: number }) {
  const { t } = useTranslation();
  return (
    <span id={id} className={length > max ? 'text-xs font-medium text-error-700 tabular-nums' : 'text-xs text-gray-500 tabular-nums'}>
      {t('settings.video.extras.counter', { count: length, max })}
    </span>
  );
}

/**
 * Issue 31 (decision 202): the lower-third (the customer's name and position as each answer starts)
 * and the end card (the logo, a call to action and an address after the last answer), each turned on
 * or off; the end card's two texts once it is on, within END_CARD_LIMITS.
 */
export function VideoExtrasFields({ form, errorOf, onChange, onBlur, onShow }: VideoExtrasFieldsProps) {
  const { t } = useTranslation();
  const empty = form.end_card && !form.end_card_text.trim() && !form.end_card_address.trim();
  return (
    <div className="flex flex-col gap-5" data-testid="video-extras">
      <div onFocus={() => onShow?.('lowerThird')}>
        <SwitchField
          id="settings-lower_third"
          label={t('settings.video.extras.lowerThird')}
          hint={t('settings.video.extras.lowerThirdHint')}
          checked={form.lower_third}
          onCheckedChange={(checked) => {
            onChange('lower_third', checked);
            onShow?.('lowerThird');
          }}
          data-testid="lower-third"
        />
      </div>
      <div className="flex flex-col gap-4" onFocus={() => onShow?.('endCard')}>
        <SwitchField
          id="settings-end_card"
          label={t('settings.video.extras.endCard')}
          hint={t('settings.video.extras.endCardHint')}
          checked={form.end_card}
          onCheckedChange={(checked) => {
            onChange('end_card', checked);
            onShow?.('endCard');
          }}
          data-testid="end-card"
        />
        {form.end_card ? (
          <div className="flex flex-col gap-4 border-l-2 border-gray-100 pl-4">
            <TextField
              id="settings-end_card_text"
              label={t('settings.video.extras.endCardText')}
              labelAside={<Counter id="settings-end_card_text-count" length={form.end_card_text.length} max={END_CARD_LIMITS.text} />}
              placeholder={t('settings.video.extras.endCardTextPlaceholder')}
              value={form.end_card_text}
              onChange={(event) => onChange('end_card_text', event.target.value)}
              onBlur={() => onBlur('end_card_text')}
              error={errorOf('end_card_text')}
              autoComplete="off"
              data-testid="end-card-text"
            />
            <TextField
              id="settings-end_card_address"
              label={t('settings.video.extras.endCardAddress')}
              labelAside={<Counter id="settings-end_card_address-count" length={form.end_card_address.length} max={END_CARD_LIMITS.address} />}
              placeholder={t('settings.video.extras.endCardAddressPlaceholder')}
              hint={empty ? t('settings.video.extras.endCardEmpty') : undefined}
              value={form.end_card_address}
              onChange={(event) => onChange('end_card_address', event.target.value)}
              onBlur={() => onBlur('end_card_address')}
              error={errorOf('end_card_address')}
              autoComplete="off"
              inputMode="url"
              data-testid="end-card-address"
            />
          </div>
        ) : null}
      </div>
    </div>
  );
}
