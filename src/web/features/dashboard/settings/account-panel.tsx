import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TProfileUser } from '../../../../contract/api/settings.schema.js';
import { LANGUAGES } from '../../../../contract/constants.js';
import type { TLanguage } from '../../../../contract/constants.js';
import { Card } from '../../../components/card';
import { TextField } from '../../../components/text-field';
import { cn } from '../../../lib/cn';
import { useUpdateCompanyMutation } from '../api/update-company';
import { SaveBar } from './save-bar';
import { accountFromProfile, sameAccount, validateAccount } from './settings-form';
import type { TAccountForm } from './settings-form';
import { failureMessage, messageText } from './settings-messages';
import type { TMessage } from './settings-messages';

interface AccountPanelProps {
  profile: TProfileUser;
  onDirtyChange: (dirty: boolean) => void;
}

/**
 * 'My account' (spec §2, §5): the company name (required, unique: name_exists) and the language of
 * e-mails, saved through update-company. The signed-in user follows the answer, so the new name shows
 * wherever the dashboard uses it.
 */
export function AccountPanel({ profile, onDirtyChange }: AccountPanelProps) {
  const { t, i18n } = useTranslation();
  const [saved, setSaved] = useState<TAccountForm>(() => accountFromProfile(profile));
  const [form, setForm] = useState<TAccountForm>(saved);
  const [showErrors, setShowErrors] = useState(false);
  /** name_exists from the server, until the name changes again. */
  const [nameTaken, setNameTaken] = useState<TMessage | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const mutation = useUpdateCompanyMutation();
  const validation = validateAccount(form);
  const dirty = !sameAccount(form, saved);
  const saving = mutation.isPending;

  useEffect(() => {
    onDirtyChange(dirty);
  }, [dirty, onDirtyChange]);

  // Back to the name once the fields are enabled again, so it can be changed at once.
  useEffect(() => {
    if (nameTaken && !saving) nameInput.current?.focus();
  }, [nameTaken, saving]);

  const nameError = (showErrors && !validation.ok && validation.errors.company_name) || nameTaken || undefined;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!dirty || saving) return;
    if (!validation.ok) {
      setShowErrors(true);
      nameInput.current?.focus();
      return;
    }
    try {
      const { user } = await mutation.mutateAsync(validation.body);
      const next = accountFromProfile(user);
      setSaved(next);
      setForm(next);
      setShowErrors(false);
      toast.success(t('settings.account.saved'));
    } catch (error) {
      console.warn('PUT /api/user/update-company failed.', error);
      const message = failureMessage(error, 'generic', i18n.language);
      if ('key' in message && message.key === 'nameExists') setNameTaken(message);
      toast.error(messageText(t, message));
    }
  };

  return (
    <Card padding="none">
      <form onSubmit={onSubmit} noValidate data-testid="settings-account-form" aria-labelledby="settings-account-title">
        <div className="border-b border-gray-100 px-4 py-5 sm:px-6">
          <h2 id="settings-account-title" className="text-base font-semibold text-gray-950">
            {t('settings.account.title')}
          </h2>
          <p className="mt-1 text-sm text-gray-600">{t('settings.account.description')}</p>
        </div>
        <fieldset disabled={saving} className="flex max-w-xl flex-col gap-6 px-4 py-6 sm:px-6">
          <TextField
            ref={nameInput}
            id="settings-company_name"
            name="company_name"
            label={t('settings.account.companyName')}
            hint={t('settings.account.companyNameHint')}
            value={form.company_name}
            autoComplete="organization"
            required
            onChange={(event) => {
              setNameTaken(null);
              setForm({ ...form, company_name: event.target.value });
            }}
            onBlur={() => setShowErrors(true)}
            error={nameError ? messageText(t, nameError) : undefined}
            data-testid="company-name"
          />
          <div
            role="radiogroup"
            aria-labelledby="settings-mail-language"
            aria-describedby="settings-mail-language-hint"
          >
            <p id="settings-mail-language" className="text-sm font-medium text-gray-900">
              {t('settings.account.mailLanguage')}
            </p>
            <p id="settings-mail-language-hint" className="mt-0.5 text-sm text-gray-500">
              {t('settings.account.mailLanguageHint')}
            </p>
            <div className="mt-3 grid grid-cols-2 gap-3 sm:max-w-sm">
              {LANGUAGES.map((language: TLanguage) => {
                const checked = form.mail_language === language;
                return (
                  <label
                    key={language}
                    className={cn(
                      'flex cursor-pointer items-center gap-3 rounded-control border px-3 py-2.5 text-sm transition-colors',
                      'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600',
                      checked
                        ? 'border-brand-600 bg-brand-50 text-brand-900 ring-1 ring-brand-600'
                        : 'border-gray-300 bg-white text-gray-800 hover:border-gray-400',
                    )}
                  >
                    <input
                      type="radio"
                      name="mail_language"
                      value={language}
                      checked={checked}
                      onChange={() => setForm({ ...form, mail_language: language })}
                      className="size-4 accent-brand-700 focus-visible:outline-none"
                      data-testid={`mail-language-${language}`}
                    />
                    <span className="font-medium">{t(`settings.account.languages.${language}`)}</span>
                    <span className="ml-auto text-xs font-medium text-gray-500 uppercase">{language}</span>
                  </label>
                );
              })}
            </div>
          </div>
        </fieldset>
        <SaveBar dirty={dirty} saving={saving} saveTestId="account-save" />
      </form>
    </Card>
  );
}
