import { describe, expect, it } from 'vitest';
import { ZUpdateSettingsBody } from '../../../../contract/api/settings.schema.js';
import type { TGetSettingsResponse } from '../../../../contract/api/settings.schema.js';
import { DEFAULT_VIDEO_STYLE, LOGO_MAX_BYTES } from '../../../../contract/constants.js';
import {
  accountFromProfile,
  changedStyleFields,
  checkLogoFile,
  defaultStyleForm,
  normaliseHex,
  previewStyle,
  sameAccount,
  sameStyle,
  styleToForm,
  validateAccount,
  validateStyle,
} from './settings-form';
import type { TStyleForm } from './settings-form';

const answer: TGetSettingsResponse = {
  logo_plate: 'auto',
  lower_third: false,
  end_card: false,
  end_card_text: '',
  end_card_address: '',
  caption_style: 'line',
  prepare_drafts: false,
  logo_luminance: null,
  logo_aspect: null,
  font_size_question: 44,
  font_color_question: '#FFCC00',
  font_style_question: 'Georgia',
  font_bold_question: true,
  font_size_subtitle: 28,
  font_color_subtitle: '#ffffff',
  font_style_subtitle: 'Verdana',
  font_bold_subtitle: false,
  subtitle_border: true,
  logo_url: 'http://127.0.0.1:3000/api/public/logo/5a4c2f0e-0d5e-4a8e-9d53-0c2f43b0f1aa?v=0123456789',
  background_color: '#1E3A8A',
  show_logo_in_videos: true,
  company_logo_url: 'http://127.0.0.1:3000/api/public/logo/5a4c2f0e-0d5e-4a8e-9d53-0c2f43b0f1aa?v=0123456789',
};

const form = (patch: Partial<TStyleForm> = {}): TStyleForm => ({
  ...styleToForm(answer),
  ...patch,
});

describe('video style: API ↔ form', () => {
  it('turns the GET answer into form values and back into the update-settings body (no company_logo_url)', () => {
    const values = styleToForm(answer);
    expect(values.font_size_question).toBe('44');
    expect(values.font_color_question).toBe('#ffcc00');
    expect(values.background_color).toBe('#1e3a8a');
    expect('company_logo_url' in values).toBe(false);

    const result = validateStyle(values);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.body).sort()).toEqual(Object.keys(ZUpdateSettingsBody.shape).sort());
    expect(result.body).toEqual({
      ...answer,
      company_logo_url: undefined,
      logo_luminance: undefined,
      logo_aspect: undefined,
      font_color_question: '#ffcc00',
      background_color: '#1e3a8a',
    } satisfies Record<string, unknown> as unknown as typeof result.body);
    expect(ZUpdateSettingsBody.parse(result.body)).toEqual(result.body);
  });

  it('resets to the defaults of spec §3 but keeps the uploaded logo (no longer shown)', () => {
    const reset = defaultStyleForm(answer.logo_url);
    const result = validateStyle(reset);
    expect(result.ok && result.body).toEqual({
      ...DEFAULT_VIDEO_STYLE,
      logo_url: answer.logo_url,
    });
    expect(reset.show_logo_in_videos).toBe(false);
    expect(defaultStyleForm('').logo_url).toBe('');
  });

  it('knows when nothing changed, whatever the spelling of the same values', () => {
    const saved = form();
    expect(sameStyle(saved, form({ font_size_question: ' 44 ', font_color_question: '#FFCC00' }))).toBe(true);
    expect(sameStyle(saved, form({ font_style_question: 'Impact' }))).toBe(false);
    expect(changedStyleFields(saved, form({ font_bold_subtitle: true, background_color: '#000000' }))).toEqual([
      'font_bold_subtitle',
      'background_color',
    ]);
  });
});

describe('video style: validation with the contract schema', () => {
  const errorsOf = (values: TStyleForm) => {
    const result = validateStyle(values);
    return result.ok ? {} : result.errors;
  };

  it('keeps question sizes within 12–72 and subtitle sizes within 12–48', () => {
    expect(errorsOf(form({ font_size_question: '12' }))).toEqual({});
    expect(errorsOf(form({ font_size_question: '72' }))).toEqual({});
    expect(errorsOf(form({ font_size_question: '11' }))).toEqual({
      font_size_question: { key: 'fontSize', values: { min: 12, max: 72 } },
    });
    expect(errorsOf(form({ font_size_question: '73' }))).toEqual({
      font_size_question: { key: 'fontSize', values: { min: 12, max: 72 } },
    });
    expect(errorsOf(form({ font_size_question: '' }))).toEqual({
      font_size_question: { key: 'fontSize', values: { min: 12, max: 72 } },
    });
    expect(errorsOf(form({ font_size_question: 'big' }))).toEqual({
      font_size_question: { key: 'fontSize', values: { min: 12, max: 72 } },
    });
    expect(errorsOf(form({ font_size_question: '36.5' }))).toEqual({
      font_size_question: { key: 'fontSizeWhole' },
    });
    expect(errorsOf(form({ font_size_subtitle: '48' }))).toEqual({});
    expect(errorsOf(form({ font_size_subtitle: '49' }))).toEqual({
      font_size_subtitle: { key: 'fontSize', values: { min: 12, max: 48 } },
    });
  });

  it('wants colours as #rrggbb', () => {
    for (const bad of ['red', '#fff', '#12345g', 'ffcc00', '#ffcc000']) {
      expect(errorsOf(form({ font_color_subtitle: bad })), bad).toEqual({
        font_color_subtitle: { key: 'hexColor' },
      });
    }
    expect(errorsOf(form({ background_color: '#A1b2C3' }))).toEqual({});
  });

  it('refuses a font outside the ten and a logo that is not an address', () => {
    expect(
      errorsOf(
        form({
          font_style_question: 'Papyrus' as TStyleForm['font_style_question'],
        }),
      ),
    ).toEqual({ font_style_question: { key: 'font' } });
    expect(errorsOf(form({ logo_url: 'not a url' }))).toEqual({
      logo_url: { key: 'logoUrl' },
    });
    expect(errorsOf(form({ logo_url: '' }))).toEqual({});
  });

  it('makes typed colours whole when they are unambiguous', () => {
    expect(normaliseHex('#FFCC00')).toBe('#ffcc00');
    expect(normaliseHex('ffcc00')).toBe('#ffcc00');
    expect(normaliseHex(' #Fc0 ')).toBe('#ffcc00');
    expect(normaliseHex('fc0')).toBe('#ffcc00');
    expect(normaliseHex('#ffcc0')).toBe('#ffcc0');
    expect(normaliseHex('blue')).toBe('blue');
  });
});

describe('account', () => {
  const profile = {
    company: { id: '5a4c2f0e-0d5e-4a8e-9d53-0c2f43b0f1aa', name: 'Acme Films' },
    mail_language: 'fr' as const,
  };

  it('reads the profile and sends the name trimmed with the mail language', () => {
    const values = accountFromProfile(profile);
    expect(values).toEqual({ company_name: 'Acme Films', mail_language: 'fr' });
    const result = validateAccount({
      ...values,
      company_name: '  Acme Studio  ',
    });
    expect(result).toEqual({
      ok: true,
      body: { company_name: 'Acme Studio', mail_language: 'fr' },
    });
  });

  it('requires a company name of at most 120 characters and a language en or fr', () => {
    expect(validateAccount({ company_name: '   ', mail_language: 'en' })).toEqual({
      ok: false,
      errors: { company_name: { key: 'companyRequired' } },
    });
    expect(validateAccount({ company_name: 'x'.repeat(121), mail_language: 'en' })).toEqual({
      ok: false,
      errors: { company_name: { key: 'companyTooLong', values: { max: 120 } } },
    });
    expect(validateAccount({ company_name: 'Acme', mail_language: 'de' as 'en' })).toEqual({
      ok: false,
      errors: { mail_language: { key: 'language' } },
    });
  });

  it('compares names without the surrounding spaces', () => {
    expect(
      sameAccount({ company_name: 'Acme ', mail_language: 'en' }, { company_name: 'Acme', mail_language: 'en' }),
    ).toBe(true);
    expect(
      sameAccount({ company_name: 'Acme', mail_language: 'fr' }, { company_name: 'Acme', mail_language: 'en' }),
    ).toBe(false);
  });
});

describe('logo file checks (spec §5)', () => {
  it('accepts images up to 5 242 880 bytes', () => {
    expect(checkLogoFile({ type: 'image/png', size: 1200 })).toBeNull();
    expect(checkLogoFile({ type: 'image/jpeg', size: LOGO_MAX_BYTES })).toBeNull();
  });

  it("refuses anything else with the spec's messages", () => {
    expect(checkLogoFile({ type: 'text/plain', size: 200 })).toEqual({
      key: 'notImage',
    });
    expect(checkLogoFile({ type: '', size: 200 })).toEqual({ key: 'notImage' });
    expect(checkLogoFile({ type: 'image/png', size: LOGO_MAX_BYTES + 1 })).toEqual({ key: 'tooLarge' });
    expect(checkLogoFile({ type: 'application/pdf', size: LOGO_MAX_BYTES * 2 })).toEqual({ key: 'notImage' });
    expect(checkLogoFile({ type: 'image/png', size: 0 })).toEqual({
      key: 'emptyFile',
    });
  });
});

describe('preview style', () => {
  it('draws the form, and the last good value of a half-typed colour or size', () => {
    const saved = form();
    expect(previewStyle(form({ font_color_question: '#00ff00', font_size_subtitle: '40' }), saved)).toMatchObject({
      question: { font: 'Georgia', size: 44, color: '#00ff00', bold: true },
      subtitle: { font: 'Verdana', size: 40, border: true },
      background: '#1e3a8a',
      showLogo: true,
    });
    const typing = previewStyle(
      form({
        font_color_question: '#00f',
        font_size_question: '7',
        background_color: '#12',
      }),
      saved,
    );
    expect(typing.question.color).toBe('#ffcc00');
    expect(typing.question.size).toBe(44);
    expect(typing.background).toBe('#1e3a8a');
    expect(previewStyle(form({ logo_url: '' }), saved).logoUrl).toBeNull();
  });
});
