import { useTranslation } from 'react-i18next';
import { SwitchField } from '../../../components/switch-field';

export interface LogoContrastNoticeProps {
  /** The logo is hard to see on the card's background (contract/logo-contrast.ts). */
  low: boolean;
  /** The logo is drawn on the light plate now (automatically or by choice). */
  plated: boolean;
  /** The company chose the plate ('on'): the switch stays in view so that it can be turned off. */
  chosen: boolean;
  onPlateChange: (plate: boolean) => void;
}

/**
 * The preview's word on the logo's contrast (decision 172): when the logo is hard to see on the card's
 * background, a warning and the switch that puts it on a light plate; nothing when it reads well and
 * the company did not ask for the plate.
 */
export function LogoContrastNotice({ low, plated, chosen, onPlateChange }: LogoContrastNoticeProps) {
  const { t } = useTranslation();
  if (!low && !chosen) return null;
  return (
    <div className="mt-4 rounded-control border border-pending-200 bg-pending-50 p-4" data-testid="logo-contrast">
      {low ? (
        <p role="status" className="mb-3 flex gap-2 text-sm font-medium text-pending-800" data-testid="logo-contrast-warning">
          <svg viewBox="0 0 20 20" fill="currentColor" className="mt-0.5 size-4 shrink-0 text-pending-700" aria-hidden="true">
            <path d="M10 2.5a1 1 0 0 1 .87.5l7 12.25A1 1 0 0 1 17 16.75H3a1 1 0 0 1-.87-1.5l7-12.25a1 1 0 0 1 .87-.5Zm0 4.25a.9.9 0 0 0-.9.9v3.6a.9.9 0 0 0 1.8 0v-3.6a.9.9 0 0 0-.9-.9Zm0 7.95a1.05 1.05 0 1 0 0-2.1 1.05 1.05 0 0 0 0 2.1Z" />
          </svg>
          {t(plated ? 'settings.video.logo.lowContrastPlated' : 'settings.video.logo.lowContrast')}
        </p>
      ) : null}
      <SwitchField
        id="settings-logo_plate"
        label={t('settings.video.logo.plate')}
        hint={t('settings.video.logo.plateHint')}
        checked={plated}
        onCheckedChange={onPlateChange}
        data-testid="logo-plate"
      />
    </div>
  );
}
