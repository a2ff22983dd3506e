import { useTranslation } from 'react-i18next';
import { SelectField } from '../../../components/select-field';
import { FONT_CHOICES, FONT_SIZE_LIMITS } from '../../../../contract/constants.js';
import type { TFontChoice } from '../../../../contract/constants.js';
import { BRAND_NAME } from '../../../lib/brand';
import { ColorField } from './color-field';
import { previewFont } from './preview-fonts';
import type { TStyleField, TStyleForm } from './settings-form';
import { SizeField } from './size-field';
import { SwitchField } from '../../../components/switch-field';

const FONT_OPTIONS = FONT_CHOICES.map((font) => ({ value: font, label: font }));

export interface TextStyleFieldsProps {
  kind: 'question' | 'subtitle';
  form: TStyleForm;
  /** The saved values: what a half-typed colour falls back to in the swatch. */
  saved: TStyleForm;
  errorOf: (field: TStyleField) => string | undefined;
  onChange: <F extends TStyleField>(field: F, value: TStyleForm[F]) => void;
  onBlur: (field: TStyleField) => void;
  disabled?: boolean;
}

/** Font, size, colour and bold of the question text or of the subtitles. */
export function TextStyleFields({ kind, form, saved, errorOf, onChange, onBlur, disabled }: TextStyleFieldsProps) {
  const { t } = useTranslation();
  const fields = {
    font: `font_style_${kind}`,
    size: `font_size_${kind}`,
    color: `font_color_${kind}`,
    bold: `font_bold_${kind}`,
  } as const satisfies Record<string, TStyleField>;
  const limits = FONT_SIZE_LIMITS[kind];
  const what = t(`settings.video.${kind}.name`);
  const font = form[fields.font];
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <SelectField
        id={`settings-${fields.font}`}
        label={t('settings.video.font')}
        options={FONT_OPTIONS}
        value={font}
        disabled={disabled}
        onChange={(event) => {
          const value = event.target.value;
          if ((FONT_CHOICES as readonly string[]).includes(value)) onChange(fields.font, value as TFontChoice);
        }}
        onBlur={() => onBlur(fields.font)}
        error={errorOf(fields.font)}
        hint={t('settings.video.fontHint', {
          family: previewFont(font).family,
          brand: BRAND_NAME,
        })}
        data-testid={`${kind}-font`}
      />
      <SizeField
        id={`settings-${fields.size}`}
        label={t('settings.video.size')}
        sliderLabel={t('settings.video.sizeSlider', { what })}
        value={form[fields.size]}
        min={limits.min}
        max={limits.max}
        disabled={disabled}
        onChange={(value) => onChange(fields.size, value)}
        onBlur={() => onBlur(fields.size)}
        hint={t('settings.video.sizeHint', {
          min: limits.min,
          max: limits.max,
        })}
        error={errorOf(fields.size)}
        data-testid={`${kind}-size`}
      />
      <ColorField
        id={`settings-${fields.color}`}
        label={t('settings.video.color')}
        pickerLabel={t('settings.video.colorPicker', { what })}
        value={form[fields.color]}
        fallback={saved[fields.color]}
        disabled={disabled}
        onChange={(value) => onChange(fields.color, value)}
        onBlur={() => onBlur(fields.color)}
        error={errorOf(fields.color)}
        data-testid={`${kind}-color`}
      />
      <div className="flex items-end sm:pb-2">
        <SwitchField
          id={`settings-${fields.bold}`}
          className="w-full"
          label={t('settings.video.bold')}
          checked={form[fields.bold]}
          disabled={disabled}
          onCheckedChange={(checked) => onChange(fields.bold, checked)}
          data-testid={`${kind}-bold`}
        />
      </div>
    </div>
  );
}
