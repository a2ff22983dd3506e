import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { COLLECTION_LIMITS } from '../../../../contract/api/collection.schema.js';
import type { TCollectionLink, TCollectionLinkBody } from '../../../../contract/api/collection.schema.js';
import type { TQuestion } from '../../../../contract/api/questions.schema.js';
import { questionTextIn } from '../../../../contract/question-text.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Checkbox } from '../../../components/checkbox';
import { Dialog } from '../../../components/dialog';
import { ChevronDownIcon } from '../../../components/icons';
import { SelectField } from '../../../components/select-field';
import { SwitchField } from '../../../components/switch-field';
import { TextField } from '../../../components/text-field';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { useSaveLinkMutation } from './collection-api';

interface Values {
  name: string;
  questionIds: string[];
  language: 'english' | 'french';
  gift: string;
  color: string;
  expires: string;
  max: string;
  dailyCap: string;
  enabled: boolean;
  code: boolean;
}

/** The end of the chosen day, in the company's browser's time zone, as an ISO date-time. */
const endOfDay = (day: string) => new Date(`${day}T23:59:59`).toISOString();
/** Whether the chosen day has already ended. */
const isPastDay = (day: string) => new Date(endOfDay(day)).getTime() <= Date.now();
const dayOf = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

function initial(link: TCollectionLink | null, questions: TQuestion[], language: 'english' | 'french'): Values {
  if (link) {
    return {
      name: link.name,
      questionIds: link.question_ids,
      language: link.language,
      gift: link.gift ?? '',
      color: link.background_color,
      expires: link.expires_at ? dayOf(link.expires_at) : '',
      max: link.max_submissions?.toString() ?? '',
      dailyCap: String(link.daily_cap),
      enabled: link.enabled,
      code: link.email_code_required,
    };
  }
  return {
    name: '',
    questionIds: questions.map((q) => q.id),
    language,
    gift: '',
    color: '#1e3a8a',
    expires: '',
    max: '',
    dailyCap: String(COLLECTION_LIMITS.dailyCap.default),
    enabled: true,
    code: false,
  };
}

const wholeNumber = (text: string, max: number) => /^\d+$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= max;

/**
 * Creates or changes a collection link: name, questions chosen and ordered, language, gift, colour,
 * end date, maximum, daily cap and the two switches. Test ids: `link-form`, `link-name`, `link-save`.
 */
export function LinkFormDialog({ link, questions, onClose, onSaved }: { link: TCollectionLink | null; questions: TQuestion[]; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState<Values>(() => initial(link, questions, i18n.language === 'fr' ? 'french' : 'english'));
  const [errors, setErrors] = useState<Partial<Record<'name' | 'questions' | 'expires' | 'max' | 'dailyCap', string>>>({});
  const save = useSaveLinkMutation();
  const lang = values.language === 'french' ? 'fr' : 'en';
  const byId = new Map(questions.map((q) => [q.id, q]));
  const chosen = values.questionIds.filter((id) => byId.has(id));
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));

  const toggle = (id: string, on: boolean) => set('questionIds', on ? [...chosen, id] : chosen.filter((x) => x !== id));
  const move = (index: number, by: -1 | 1) => {
    const next = [...chosen];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    set('questionIds', next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!values.name.trim()) next.name = t('collectionLinks.form.nameRequired');
    if (chosen.length === 0) next.questions = t('collectionLinks.form.questionsRequired');
    if (values.expires && isPastDay(values.expires)) next.expires = t('collectionLinks.form.expiresPast');
    if (values.max && !wholeNumber(values.max, COLLECTION_LIMITS.maxSubmissions)) next.max = t('collectionLinks.form.numberInvalid', { max: COLLECTION_LIMITS.maxSubmissions });
    if (!wholeNumber(values.dailyCap, COLLECTION_LIMITS.dailyCap.max)) next.dailyCap = t('collectionLinks.form.numberInvalid', { max: COLLECTION_LIMITS.dailyCap.max });
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const body: TCollectionLinkBody = {
      name: values.name.trim(),
      question_ids: chosen,
      language: values.language,
      gift: values.gift.trim() || null,
      background_color: values.color,
      expires_at: values.expires ? endOfDay(values.expires) : null,
      max_submissions: values.max ? Number(values.max) : null,
      daily_cap: Number(values.dailyCap),
      enabled: values.enabled,
      email_code_required: values.code,
    };
    save.mutate({ id: link?.id ?? null, body }, { onSuccess: onSaved });
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={link ? t('collectionLinks.form.editTitle') : t('collectionLinks.form.createTitle')}
      description={t('collectionLinks.form.description')}
      size="lg"
      busy={save.isPending}
      data-testid="link-form"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
            {t('collectionLinks.form.cancel')}
          </Button>
          <Button type="submit" form="link-form" loading={save.isPending} data-testid="link-save">
            {link ? t('collectionLinks.form.save') : t('collectionLinks.form.create')}
          </Button>
        </>
      }
    >
      <form id="link-form" className="space-y-5" onSubmit={submit} noValidate>
        <TextField label={t('collectionLinks.form.name')} value={values.name} onChange={(e) => set('name', e.target.value)} placeholder={t('collectionLinks.form.namePlaceholder')} error={errors.name} maxLength={COLLECTION_LIMITS.name} data-testid="link-name" />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={t('collectionLinks.form.language')}
            value={values.language}
            onChange={(e) => set('language', e.target.value === 'french' ? 'french' : 'english')}
            options={[
              { value: 'english', label: t('collectionLinks.form.english') },
              { value: 'french', label: t('collectionLinks.form.french') },
            ]}
            data-testid="link-language"
          />
          <div className="flex flex-col gap-1.5">
            <label htmlFor="link-color" className="text-sm font-medium text-gray-900">
              {t('collectionLinks.form.color')}
            </label>
            <div className="flex items-center gap-3">
              <input id="link-color" type="color" value={values.color} onChange={(e) => set('color', e.target.value)} className="h-10 w-14 cursor-pointer rounded-control border border-gray-300 bg-white p-1" />
              <span className="font-mono text-sm text-gray-600">{values.color}</span>
            </div>
            <p className="text-sm text-gray-500">{t('collectionLinks.form.colorHint')}</p>
          </div>
        </div>

        <fieldset className="min-w-0">
          <legend className="text-sm font-medium text-gray-900">{t('collectionLinks.form.questions')}</legend>
          <p className="mt-1 text-sm text-gray-500">{t('collectionLinks.form.questionsHint')}</p>
          <div className="mt-3 max-h-48 space-y-2 overflow-y-auto rounded-control border border-gray-200 p-3">
            {questions.map((q) => (
              <Checkbox key={q.id} label={questionTextIn(q, lang)} checked={chosen.includes(q.id)} onChange={(e) => toggle(q.id, e.target.checked)} data-testid="link-question" />
            ))}
          </div>
          {errors.questions && (
            <p className="mt-2 text-sm text-error-700" role="alert">
              {errors.questions}
            </p>
          )}
          {chosen.length > 1 && (
            <div className="mt-3">
              <p className="text-sm font-medium text-gray-700">{t('collectionLinks.form.chosen')}</p>
              <ol className="mt-2 space-y-1.5">
                {chosen.map((id, i) => {
                  const text = questionTextIn(byId.get(id)!, lang);
                  return (
                    <li key={id} className="flex items-center gap-2 rounded-control bg-gray-50 px-3 py-1.5 text-sm text-gray-800">
                      <span className="w-5 shrink-0 text-gray-500 tabular-nums">{i + 1}.</span>
                      <span className="min-w-0 flex-1 truncate">{text}</span>
                      <Button type="button" size="sm" variant="ghost" disabled={i === 0} onClick={() => move(i, -1)} aria-label={t('collectionLinks.form.moveUp', { text })}>
                        <ChevronDownIcon className="size-4 rotate-180" />
                      </Button>
                      <Button type="button" size="sm" variant="ghost" disabled={i === chosen.length - 1} onClick={() => move(i, 1)} aria-label={t('collectionLinks.form.moveDown', { text })}>
                        <ChevronDownIcon className="size-4" />
                      </Button>
                    </li>
                  );
                })}
              </ol>
            </div>
          )}
        </fieldset>

        <TextField label={t('collectionLinks.form.gift')} value={values.gift} onChange={(e) => set('gift', e.target.value)} placeholder={t('collectionLinks.form.giftPlaceholder')} maxLength={500} />
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label={t('collectionLinks.form.expires')} type="date" value={values.expires} onChange={(e) => set('expires', e.target.value)} hint={t('collectionLinks.form.expiresHint')} error={errors.expires} data-testid="link-expires" />
          <TextField label={t('collectionLinks.form.max')} inputMode="numeric" value={values.max} onChange={(e) => set('max', e.target.value)} hint={t('collectionLinks.form.maxHint')} error={errors.max} data-testid="link-max" />
          <TextField label={t('collectionLinks.form.dailyCap')} inputMode="numeric" value={values.dailyCap} onChange={(e) => set('dailyCap', e.target.value)} hint={t('collectionLinks.form.dailyCapHint')} error={errors.dailyCap} data-testid="link-daily-cap" />
        </div>
        <div className="space-y-3 rounded-control border border-gray-200 p-4">
          <SwitchField label={t('collectionLinks.form.enabled')} hint={t('collectionLinks.form.enabledHint')} checked={values.enabled} onCheckedChange={(v) => set('enabled', v)} data-testid="link-enabled" />
          <SwitchField label={t('collectionLinks.form.code')} hint={t('collectionLinks.form.codeHint')} checked={values.code} onCheckedChange={(v) => set('code', v)} data-testid="link-code" />
        </div>
        {save.isError && (
          <Alert tone="error" title={t('collectionLinks.form.failed')}>
            {apiErrorMessage(save.error, t)}
          </Alert>
        )}
      </form>
    </Dialog>
  );
}
