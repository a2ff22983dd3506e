import { useTranslation } from 'react-i18next';
import { SwitchField } from '../../../components/switch-field';

/**
 * "Prepare drafts when a testimonial arrives" (issue 31, decision 207): when on, a testimonial that
 * arrives is unlocked at once with one credit (when one is left) and its draft is made without being
 * asked. Part of the video style's form (saved with it). Test id `prepare-drafts`.
 */
export function PrepareDraftsField({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="settings-drafts-title" className="px-4 py-6 sm:px-6">
      <h3 id="settings-drafts-title" className="text-sm font-semibold text-gray-950">
        {t('settings.drafts.title')}
      </h3>
      <p className="mt-0.5 mb-5 text-sm text-gray-600">{t('settings.drafts.description')}</p>
      <SwitchField
        id="settings-prepare_drafts"
        label={t('settings.drafts.label')}
        hint={t('settings.drafts.hint')}
        checked={checked}
        onCheckedChange={onChange}
        data-testid="prepare-drafts"
      />
    </section>
  );
}
