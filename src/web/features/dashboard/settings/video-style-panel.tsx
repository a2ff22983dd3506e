import { useEffect, useMemo, useRef, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TGetSettingsResponse } from '../../../../contract/api/settings.schema.js';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { ConfirmDialog } from '../../../components/dialog';
import { RefreshIcon } from '../../../components/icons';
import { isApiError } from '../../../lib/api-client';
import { useUpdateSettingsMutation } from '../api/update-settings';
import { CaptionStyleField } from './caption-style-field';
import { ColorField } from './color-field';
import { logoContrastLow, logoOnPlate } from '../../../../contract/logo-contrast.js';
import { LogoContrastNotice } from './logo-contrast-notice';
import { LogoField } from './logo-field';
import { SaveBar } from './save-bar';
import { checkLogoFile, defaultStyleForm, formTheme, previewStyle, sameStyle, styleToForm, themeStyleForm, validateStyle } from './settings-form';
import type { TStyleErrors, TStyleField, TStyleForm } from './settings-form';
import { failureMessage, messageText } from './settings-messages';
import { SwitchField } from '../../../components/switch-field';
import { TextStyleFields } from './text-style-fields';
import { ThemePicker } from './theme-picker';
import { VideoExtrasFields } from './video-extras-fields';
import { useLogoUpload } from './use-logo-upload';
import type { LogoOutcome } from './use-logo-upload';
import { PrepareDraftsField } from './prepare-drafts-field';
import { PreviewPanel } from './video-preview';
import type { TPreviewFrame } from './video-preview';

/** The order errors are looked at in, to put the focus on the first one. */
const FIELD_ORDER: readonly TStyleField[] = [
  'font_style_question',
  'font_size_question',
  'font_color_question',
  'font_bold_question',
  'font_style_subtitle',
  'font_size_subtitle',
  'font_color_subtitle',
  'font_bold_subtitle',
  'subtitle_border',
  'background_color',
  'logo_url',
  'show_logo_in_videos',
  'logo_plate',
  'lower_third',
  'end_card',
  'end_card_text',
  'end_card_address',
];

function Section({
  id,
  title,
  description,
  children,
  onFocus,
  testId,
}: {
  id: string;
  title: string;
  description: string;
  children: ReactNode;
  onFocus?: () => void;
  testId?: string;
}) {
  return (
    <section aria-labelledby={id} onFocus={onFocus} className="px-4 py-6 sm:px-6" data-testid={testId}>
      <h3 id={id} className="text-sm font-semibold text-gray-950">
        {title}
      </h3>
      <p id={`${id}-description`} className="mt-0.5 mb-5 text-sm text-gray-600">
        {description}
      </p>
      {children}
    </section>
  );
}

interface VideoStylePanelProps {
  settings: TGetSettingsResponse;
  /** The question the preview shows (the company's first, or a sample). */
  question: string;
  onDirtyChange: (dirty: boolean) => void;
}

/** Fields a theme fills: their errors from the server no longer apply once it is picked. */
const THEME_FIELDS: readonly TStyleField[] = FIELD_ORDER.filter(
  (field) => !['logo_url', 'show_logo_in_videos', 'logo_plate', 'lower_third', 'end_card', 'end_card_text', 'end_card_address'].includes(field),
);

/**
 * 'Video personalisation' (spec §2, §3, §5): question and subtitle text styles, the subtitle outline,
 * the card background, the logo (uploaded at once, after the checks of §5) and whether videos show it,
 * a live preview drawn as the renderer draws, a reset to the defaults of §3, and one save.
 */
export function VideoStylePanel({ settings, question, onDirtyChange }: VideoStylePanelProps) {
  const { t, i18n } = useTranslation();
  const [saved, setSaved] = useState<TStyleForm>(() => styleToForm(settings));
  const [form, setForm] = useState<TStyleForm>(saved);
  // The form as last drawn, for the logo upload's outcome (it arrives from a job, later).
  const formRef = useRef(form);
  useEffect(() => {
    formRef.current = form;
  }, [form]);
  const [touched, setTouched] = useState<ReadonlySet<TStyleField>>(() => new Set());
  const [showAllErrors, setShowAllErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<TStyleErrors>({});
  const [logoError, setLogoError] = useState<string | null>(null);
  const [resetOpen, setResetOpen] = useState(false);
  const [frame, setFrame] = useState<TPreviewFrame>('intro');
  const save = useUpdateSettingsMutation();
  // Once the logo job is over, the saved values take the logo the server now holds (the new one, or
  // the one before when it failed); the form too, unless a removal is pending there.
  // A logo is uploaded to be seen (issue 27): once ready, the switch that puts it in videos turns on
  // in the form, and the Save bar leaves the company to confirm or undo it.
  // A logo still being prepared when the screen opened (decision 177) shows as the upload, its job
  // followed as if the upload had been made here: a save meanwhile keeps it.
  const [pendingLogo] = useState(() => (settings.logo_job_id && settings.logo_url ? { id: settings.logo_job_id, previewUrl: settings.logo_url } : null));
  const upload = useLogoUpload(({ status, logoUrl }: LogoOutcome) => {
    setSaved((current) => ({ ...current, logo_url: logoUrl }));
    const turnOn = status === 'ready' && !formRef.current.show_logo_in_videos && formRef.current.logo_url !== '';
    setForm((current) => (current.logo_url === '' ? current : { ...current, logo_url: logoUrl, show_logo_in_videos: current.show_logo_in_videos || turnOn }));
    if (status === 'ready') toast.success(t(turnOn ? 'settings.video.logo.readyShown' : 'settings.video.logo.ready'));
  }, pendingLogo);
  const saving = save.isPending;

  const validation = useMemo(() => validateStyle(form), [form]);
  const dirty = !sameStyle(form, saved);
  // The logo's contrast on the card (decision 172), known once its job measured the stored logo: a
  // logo being prepared or about to be removed has no measure yet.
  const logoLuminance = form.logo_url !== '' && form.logo_url === settings.company_logo_url ? settings.logo_luminance : null;
  const basePreview = useMemo(() => previewStyle(form, saved), [form, saved]);
  const logoLow = form.show_logo_in_videos && logoContrastLow(logoLuminance, basePreview.background);
  const logoPlated = logoOnPlate({ logoLuminance, background: basePreview.background, plate: form.logo_plate });
  const preview = useMemo(() => ({ ...basePreview, logoPlate: logoPlated }), [basePreview, logoPlated]);
  const theme = useMemo(() => formTheme(form), [form]);

  useEffect(() => {
    onDirtyChange(dirty);
  }, [dirty, onDirtyChange]);

  const errorOf = (field: TStyleField): string | undefined => {
    const server = serverErrors[field];
    if (server) return messageText(t, server);
    if (validation.ok || !(showAllErrors || touched.has(field))) return undefined;
    const message = validation.errors[field];
    return message ? messageText(t, message) : undefined;
  };

  const onChange = <F extends TStyleField>(field: F, value: TStyleForm[F]) => {
    setForm((current) => ({ ...current, [field]: value }));
    setServerErrors((current) => (field in current ? { ...current, [field]: undefined } : current));
  };
  const onBlur = (field: TStyleField) =>
    setTouched((current) => (current.has(field) ? current : new Set(current).add(field)));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!dirty || saving) return;
    if (!validation.ok) {
      setShowAllErrors(true);
      const first = FIELD_ORDER.find((field) => validation.errors[field]);
      if (first) document.getElementById(`settings-${first}`)?.focus();
      return;
    }
    try {
      const answer = await save.mutateAsync(validation.body);
      const next = styleToForm(answer);
      setSaved(next);
      setForm(next);
      setTouched(new Set());
      setShowAllErrors(false);
      setServerErrors({});
      toast.success(t('settings.video.saved'));
    } catch (error) {
      console.warn('POST /api/auth/update-settings failed.', error);
      const message = failureMessage(error, 'generic', i18n.language);
      const field = isApiError(error) ? error.field : undefined;
      if (field && field in form) setServerErrors({ [field]: message });
      toast.error(messageText(t, message));
    }
  };

  const onLogoFile = async (file: File) => {
    setLogoError(null);
    const problem = checkLogoFile(file);
    if (problem) {
      setLogoError(messageText(t, problem));
      return;
    }
    try {
      const logo_url = await upload.start(file);
      // The file as uploaded shows at once, 'Preparing…' until its job makes it the stored logo.
      setSaved((current) => ({ ...current, logo_url }));
      setForm((current) => ({ ...current, logo_url }));
    } catch (error) {
      console.warn('POST /api/auth/upload-logo failed.', error);
      const message = messageText(t, failureMessage(error, 'uploadGeneric', i18n.language));
      setLogoError(message);
      toast.error(message);
    }
  };

  const onTheme = (picked: Parameters<typeof themeStyleForm>[1]) => {
    setForm((current) => themeStyleForm(current, picked));
    setServerErrors((current) => Object.fromEntries(Object.entries(current).filter(([field]) => !THEME_FIELDS.includes(field as TStyleField))));
  };

  const onReset = () => {
    setForm(defaultStyleForm(form.logo_url));
    setTouched(new Set());
    setShowAllErrors(false);
    setServerErrors({});
    setResetOpen(false);
  };

  const onDiscard = () => {
    setForm(saved);
    setTouched(new Set());
    setShowAllErrors(false);
    setServerErrors({});
  };

  return (
    <form onSubmit={onSubmit} noValidate data-testid="settings-video-form" aria-labelledby="settings-video-title">
      <Card padding="none">
        <div className="flex flex-col gap-3 border-b border-gray-100 px-4 py-5 sm:flex-row sm:items-start sm:justify-between sm:px-6">
          <div className="min-w-0">
            <h2 id="settings-video-title" className="text-base font-semibold text-gray-950">
              {t('settings.video.title')}
            </h2>
            <p className="mt-1 text-sm text-gray-600">{t('settings.video.description')}</p>
          </div>
          <Button
            variant="secondary"
            size="sm"
            className="self-start"
            onClick={() => setResetOpen(true)}
            disabled={saving}
            leadingIcon={<RefreshIcon className="size-4" />}
            data-testid="style-reset"
          >
            {t('settings.video.reset')}
          </Button>
        </div>

        <div className="lg:grid lg:grid-cols-[minmax(0,1fr)_minmax(0,24rem)] lg:items-start">
          <div
            className={
              'sticky top-16 z-10 border-b border-gray-100 bg-white/95 px-4 py-3 backdrop-blur sm:px-6 ' +
              'lg:top-20 lg:col-start-2 lg:row-start-1 lg:border-b-0 lg:border-l lg:bg-transparent lg:px-5 lg:py-6 lg:backdrop-blur-none'
            }
          >
            <PreviewPanel
              style={preview}
              question={question}
              longQuestion={t('settings.preview.longQuestionText')}
              subtitle={t('settings.preview.sampleSubtitle')}
              captionStyle={form.caption_style}
              active={frame}
              onActiveChange={setFrame}
            />
          </div>

          <fieldset disabled={saving} className="min-w-0 divide-y divide-gray-100 lg:col-start-1 lg:row-start-1">
            <Section
              id="settings-theme-title"
              title={t('settings.video.themes.title')}
              description={t('settings.video.themes.description')}
              onFocus={() => setFrame('intro')}
              testId="settings-themes"
            >
              <ThemePicker
                selected={theme?.id ?? null}
                onPick={onTheme}
                labelledBy="settings-theme-title"
                describedBy="settings-theme-title-description"
              />
            </Section>

            <Section
              id="settings-question-title"
              title={t('settings.video.question.title')}
              description={t('settings.video.question.description')}
              onFocus={() => setFrame('intro')}
            >
              <TextStyleFields
                kind="question"
                form={form}
                saved={saved}
                errorOf={errorOf}
                onChange={onChange}
                onBlur={onBlur}
              />
            </Section>

            <Section
              id="settings-subtitle-title"
              title={t('settings.video.subtitle.title')}
              description={t('settings.video.subtitle.description')}
              onFocus={() => setFrame('subtitle')}
            >
              <TextStyleFields
                kind="subtitle"
                form={form}
                saved={saved}
                errorOf={errorOf}
                onChange={onChange}
                onBlur={onBlur}
              />
              <SwitchField
                id="settings-subtitle_border"
                className="mt-5"
                label={t('settings.video.border')}
                hint={t('settings.video.borderHint')}
                checked={form.subtitle_border}
                onCheckedChange={(checked) => onChange('subtitle_border', checked)}
                data-testid="subtitle-border"
              />
              <CaptionStyleField value={form.caption_style} onChange={(style) => onChange('caption_style', style)} />
            </Section>

            <Section
              id="settings-card-title"
              title={t('settings.video.card.title')}
              description={t('settings.video.card.description')}
              onFocus={() => setFrame('intro')}
            >
              <div className="flex flex-col gap-6">
                <div className="sm:max-w-[calc(50%-0.625rem)]">
                  <ColorField
                    id="settings-background_color"
                    label={t('settings.video.card.background')}
                    pickerLabel={t('settings.video.colorPicker', {
                      what: t('settings.video.card.backgroundName'),
                    })}
                    value={form.background_color}
                    fallback={saved.background_color}
                    onChange={(value) => onChange('background_color', value)}
                    onBlur={() => onBlur('background_color')}
                    error={errorOf('background_color')}
                    data-testid="background-color"
                  />
                </div>
                <div>
                  <h4 className="mb-3 text-sm font-medium text-gray-900">{t('settings.video.logo.title')}</h4>
                  <LogoField
                    logoUrl={form.logo_url}
                    savedLogoUrl={saved.logo_url}
                    uploading={upload.uploading}
                    job={upload.follow}
                    error={logoError ?? errorOf('logo_url') ?? null}
                    onFile={(file) => void onLogoFile(file)}
                    onRemove={() => {
                      setLogoError(null);
                      onChange('logo_url', '');
                    }}
                    showLogo={form.show_logo_in_videos}
                    onShowLogoChange={(show) => onChange('show_logo_in_videos', show)}
                  />
                  {form.show_logo_in_videos && form.logo_url !== '' ? (
                    <LogoContrastNotice
                      low={logoLow}
                      plated={logoPlated}
                      chosen={form.logo_plate === 'on'}
                      onPlateChange={(plate) => onChange('logo_plate', plate ? 'on' : 'off')}
                    />
                  ) : null}
                </div>
              </div>
            </Section>

            <Section
              id="settings-extras-title"
              title={t('settings.video.extras.title')}
              description={t('settings.video.extras.description')}
              testId="settings-extras"
            >
              <VideoExtrasFields form={form} errorOf={errorOf} onChange={onChange} onBlur={onBlur} onShow={setFrame} />
            </Section>
            <PrepareDraftsField checked={form.prepare_drafts} onChange={(checked) => onChange('prepare_drafts', checked)} />
          </fieldset>
        </div>

        <SaveBar
          sticky
          dirty={dirty}
          saving={saving}
          saveTestId="style-save"
          extra={
            dirty ? (
              <Button variant="ghost" onClick={onDiscard} disabled={saving} data-testid="style-discard">
                <span className="sm:hidden">{t('settings.video.discardShort')}</span>
                <span className="hidden sm:inline">{t('settings.video.discard')}</span>
              </Button>
            ) : null
          }
        />
      </Card>

      <ConfirmDialog
        open={resetOpen}
        onOpenChange={setResetOpen}
        title={t('settings.video.resetTitle')}
        description={t('settings.video.resetDescription')}
        confirmLabel={t('settings.video.resetConfirm')}
        onConfirm={onReset}
        data-testid="style-reset-dialog"
      />
    </form>
  );
}
