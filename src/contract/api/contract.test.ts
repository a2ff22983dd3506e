import { describe, it, expect, expectTypeOf } from 'vitest';
import { z } from 'zod';
import { CREDIT_PACKAGES, DEFAULT_VIDEO_STYLE } from '../constants.js';
import { EMAIL_INVALID_MESSAGE, HEX_COLOR_MESSAGE, ZEmail, ZHexColor } from './common.js';
import { ZSignupBody, ZProcessAuthCallbackResponse } from './auth.schema.js';
import { ZSendRequestBody, ZRequestDetailResponse } from './requests.schema.js';
import { ZVideoStyleFields, ZLogoFileInfo } from './settings.schema.js';
import { ZCropArea, ZExportV2Body } from './studio.schema.js';
import { ZSaveTestimonialFields, videoFileIndex, videoFileName } from './public.schema.js';
import {
  parseMergedTranscriptions,
  stringifyMergedTranscriptions,
  ZTranscriptionSegment,
} from './transcription.schema.js';
import { CREDIT_PACKAGE_IDS, ZCheckoutSessionBody } from './payment.schema.js';
import { API, ROUTE_TEMPLATES, isPublicApiPath, listEndpoints } from './paths.js';

const ID_A = '3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f';
const ID_B = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

/** The messages of a failed parse, or [] when it passed. */
function messages(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('crop area (§5)', () => {
  const area = { x: 0.25, y: 0.1, width: 0.5, height: 0.8 };

  it('accepts an area inside the frame, including the full frame', () => {
    expect(ZCropArea.safeParse(area).success).toBe(true);
    expect(ZCropArea.safeParse({ x: 0, y: 0, width: 1, height: 1 }).success).toBe(true);
  });

  it('accepts x + width = 1 and y + height = 1 exactly, and within the epsilon', () => {
    expect(ZCropArea.safeParse({ x: 0.5, y: 0.5, width: 0.5, height: 0.5 }).success).toBe(true);
    // 0.1 + 0.9 and 0.7 + 0.3 are not exactly 1 in floating point
    expect(ZCropArea.safeParse({ x: 0.1, y: 0.7, width: 0.9, height: 0.3 }).success).toBe(true);
    expect(ZCropArea.safeParse({ x: 0.5, y: 0, width: 0.5 + 5e-7, height: 1 }).success).toBe(true);
  });

  it('rejects x + width = 1.0001 and y + height = 1.0001', () => {
    const wide = ZCropArea.safeParse({ x: 0.5, y: 0, width: 0.5001, height: 1 });
    expect(wide.success).toBe(false);
    expect(wide.error?.issues[0]?.path).toEqual(['width']);
    expect(wide.error?.issues[0]?.message).toMatch(/x \+ width/);

    const tall = ZCropArea.safeParse({ x: 0, y: 0.5, width: 1, height: 0.5001 });
    expect(tall.success).toBe(false);
    expect(tall.error?.issues[0]?.path).toEqual(['height']);
  });

  it('keeps x and y within [0, 1]', () => {
    expect(messages(ZCropArea, { ...area, x: -0.01 })).toContain('X must be between 0 and 1');
    expect(messages(ZCropArea, { ...area, y: 1.01 })).toContain('Y must be between 0 and 1');
    expect(ZCropArea.safeParse({ x: 1, y: 0, width: 0.0001, height: 1 }).success).toBe(false);
  });

  it('keeps width and height in (0, 1]', () => {
    expect(messages(ZCropArea, { ...area, width: 0 })).toContain('Width must be greater than 0 and at most 1');
    expect(messages(ZCropArea, { ...area, height: -0.2 })).toContain('Height must be greater than 0 and at most 1');
    expect(messages(ZCropArea, { x: 0, y: 0, width: 1.0001, height: 1 })).toContain(
      'Width must be greater than 0 and at most 1',
    );
  });

  it('refuses values that are not finite numbers', () => {
    expect(ZCropArea.safeParse({ ...area, x: Number.NaN }).success).toBe(false);
    expect(ZCropArea.safeParse({ ...area, width: Number.POSITIVE_INFINITY }).success).toBe(false);
    expect(ZCropArea.safeParse({ ...area, y: '0.1' }).success).toBe(false);
    expect(ZCropArea.safeParse({ x: 0, y: 0, width: 1 }).success).toBe(false);
  });

  it('export-v2 accepts shorts and linkedin only, original and modified only', () => {
    const body = { platform: 'shorts', videoType: 'modified', cropArea: area, language: 'en' };
    expect(ZExportV2Body.safeParse(body).success).toBe(true);
    expect(ZExportV2Body.safeParse({ ...body, platform: 'linkedin', videoType: 'original' }).success).toBe(true);
    expect(messages(ZExportV2Body, { ...body, platform: 'tiktok' })).toEqual(['Unsupported platform: tiktok']);
    expect(ZExportV2Body.safeParse({ ...body, videoType: 'enhanced' }).success).toBe(false);
  });
});

describe('hex colours', () => {
  it.each(['#1a2b3c', '#FFFFFF', '#000000', '#aBcDeF'])('accepts %s', (value) => {
    expect(ZHexColor.safeParse(value).success).toBe(true);
  });

  it.each(['#fff', '1a2b3c', '#1a2b3g', '#1a2b3c4d', ' #1a2b3c', 'red', '', '#1a2b3c\n'])('rejects %j', (value) => {
    expect(messages(ZHexColor, value)).toEqual([HEX_COLOR_MESSAGE]);
  });
});

describe('video style settings (§5)', () => {
  it('accepts the defaults', () => {
    expect(ZVideoStyleFields.safeParse(DEFAULT_VIDEO_STYLE).success).toBe(true);
  });

  it('keeps the question font size within 12..72', () => {
    for (const size of [12, 36, 72]) {
      expect(ZVideoStyleFields.safeParse({ ...DEFAULT_VIDEO_STYLE, font_size_question: size }).success).toBe(true);
    }
    for (const size of [11, 73, 0]) {
      expect(messages(ZVideoStyleFields, { ...DEFAULT_VIDEO_STYLE, font_size_question: size })).toEqual([
        'Font size must be between 12 and 72',
      ]);
    }
    expect(ZVideoStyleFields.safeParse({ ...DEFAULT_VIDEO_STYLE, font_size_question: 36.5 }).success).toBe(false);
  });

  it('keeps the subtitle font size within 12..48', () => {
    expect(ZVideoStyleFields.safeParse({ ...DEFAULT_VIDEO_STYLE, font_size_subtitle: 12 }).success).toBe(true);
    expect(ZVideoStyleFields.safeParse({ ...DEFAULT_VIDEO_STYLE, font_size_subtitle: 48 }).success).toBe(true);
    expect(messages(ZVideoStyleFields, { ...DEFAULT_VIDEO_STYLE, font_size_subtitle: 49 })).toEqual([
      'Font size must be between 12 and 48',
    ]);
    expect(messages(ZVideoStyleFields, { ...DEFAULT_VIDEO_STYLE, font_size_subtitle: 11 })).toEqual([
      'Font size must be between 12 and 48',
    ]);
  });

  it('checks colours, fonts and the logo URL', () => {
    expect(messages(ZVideoStyleFields, { ...DEFAULT_VIDEO_STYLE, background_color: '#000' })).toEqual([
      HEX_COLOR_MESSAGE,
    ]);
    expect(messages(ZVideoStyleFields, { ...DEFAULT_VIDEO_STYLE, font_style_subtitle: 'Papyrus' })).toEqual([
      'Choose one of the available fonts',
    ]);
    for (const logo_url of ['', 'https://cdn.example.com/logo.png', '/api/media/logo/abc.png']) {
      expect(ZVideoStyleFields.safeParse({ ...DEFAULT_VIDEO_STYLE, logo_url }).success).toBe(true);
    }
    for (const logo_url of ['logo.png', 'javascript:alert(1)', '//evil.example.com/x.png']) {
      expect(messages(ZVideoStyleFields, { ...DEFAULT_VIDEO_STYLE, logo_url })).toEqual(['Logo must be a URL']);
    }
  });

  it('checks the logo file: an image of at most 5 MB', () => {
    expect(ZLogoFileInfo.safeParse({ type: 'image/png', size: 5_242_880 }).success).toBe(true);
    expect(messages(ZLogoFileInfo, { type: 'image/png', size: 5_242_881 })).toEqual([
      'File size must be less than 5MB',
    ]);
    expect(messages(ZLogoFileInfo, { type: 'application/pdf', size: 10 })).toEqual(['Please select an image file']);
  });
});

describe('send payload', () => {
  const payload = {
    customer_email: ' jane@example.com ',
    customer_name: '  Jane Doe ',
    question_ids: [ID_A],
    language: 'english',
  };

  it('accepts a minimal payload and trims the values', () => {
    const result = ZSendRequestBody.parse(payload);
    expect(result.customer_name).toBe('Jane Doe');
    expect(result.customer_email).toBe('jane@example.com');
    expect(result.customer_position).toBeUndefined();
  });

  it('requires at least one question', () => {
    expect(messages(ZSendRequestBody, { ...payload, question_ids: [] })).toEqual(['Select at least one question']);
    expect(messages(ZSendRequestBody, { ...payload, question_ids: undefined })).toEqual([
      'Select at least one question',
    ]);
    expect(ZSendRequestBody.safeParse({ ...payload, question_ids: [ID_A, ID_B] }).success).toBe(true);
    expect(ZSendRequestBody.safeParse({ ...payload, question_ids: [ID_A, ID_A] }).success).toBe(false);
  });

  it('requires a non-blank name and a language of english or french', () => {
    expect(messages(ZSendRequestBody, { ...payload, customer_name: '   ' })).toEqual(['Customer name is required']);
    expect(ZSendRequestBody.safeParse({ ...payload, language: 'french' }).success).toBe(true);
    expect(ZSendRequestBody.safeParse({ ...payload, language: 'fr' }).success).toBe(false);
  });

  it('keeps expires_in_days within 1..365', () => {
    for (const days of [1, 30, 365]) {
      expect(ZSendRequestBody.safeParse({ ...payload, expires_in_days: days }).success).toBe(true);
    }
    for (const days of [0, 366, 2.5]) {
      expect(ZSendRequestBody.safeParse({ ...payload, expires_in_days: days }).success).toBe(false);
    }
  });
});

describe('e-mail pattern (x@y.z)', () => {
  it.each(['a@b.c', 'jane.doe+tag@example.co.uk', '  padded@example.com  '])('accepts %j', (value) => {
    expect(ZEmail.safeParse(value).success).toBe(true);
  });

  it.each(['a@b', 'a b@c.d', '@b.c', 'a@.c', 'a@b.', 'a@@b.c', 'plainaddress'])('rejects %j', (value) => {
    expect(messages(ZEmail, value)).toContain(EMAIL_INVALID_MESSAGE);
  });

  it('says an empty e-mail is required', () => {
    expect(messages(ZEmail, '  ')).toContain('E-mail is required');
  });
});

describe('signup', () => {
  const base = {
    firstname: 'Jane',
    lastname: 'Doe',
    email: 'jane@example.com',
    companyName: 'Acme',
    lang: 'fr',
  };

  it('needs a password of at least 6 characters', () => {
    expect(ZSignupBody.safeParse({ ...base, password: 'secret' }).success).toBe(true);
    expect(messages(ZSignupBody, { ...base, password: 'short' })).toEqual([
      'Password must be at least 6 characters',
    ]);
    expect(messages(ZSignupBody, base)).toEqual(['Password is required']);
  });

  it('needs no password for a Google sign-up, but the sign-up token', () => {
    const google = { ...base, fromGoogle: true, googleId: '1234', picture: 'https://example.com/p.png' };
    expect(ZSignupBody.safeParse({ ...google, accessToken: 'one-time' }).success).toBe(true);
    expect(ZSignupBody.safeParse({ ...google, accessToken: 'one-time', password: '' }).success).toBe(true);
    expect(ZSignupBody.safeParse(google).success).toBe(false);
  });

  it('rejects a blank company name and a language other than en or fr', () => {
    expect(messages(ZSignupBody, { ...base, password: 'secret', companyName: '  ' })).toEqual([
      'Company name is required',
    ]);
    expect(ZSignupBody.safeParse({ ...base, password: 'secret', lang: 'de' }).success).toBe(false);
  });
});

describe('customer submission fields', () => {
  const fields = {
    questionIds: [ID_A, ID_B],
    bgColors: ['#000000', '#112233'],
    name: ' Jane ',
    title: 'CEO',
    testimonialId: ID_A,
    token: 'abcDEF123_-xyz',
    consentVersion: 'image-rights-v1',
  };

  it('accepts one colour per answer', () => {
    expect(ZSaveTestimonialFields.parse(fields).name).toBe('Jane');
  });

  it('refuses no answers, a blank name and mismatched colours', () => {
    expect(messages(ZSaveTestimonialFields, { ...fields, questionIds: [], bgColors: [] })).toEqual([
      'No recordings to submit.',
    ]);
    expect(messages(ZSaveTestimonialFields, { ...fields, name: ' ' })).toEqual([
      'Please enter your name before proceeding',
    ]);
    expect(ZSaveTestimonialFields.safeParse({ ...fields, bgColors: ['#000000'] }).success).toBe(false);
    expect(ZSaveTestimonialFields.safeParse({ ...fields, token: 'bad token/..' }).success).toBe(false);
  });

  it('names the video files by index', () => {
    expect(videoFileName(0)).toBe('video0.webm');
    expect(videoFileIndex('video12.mp4')).toBe(12);
    expect(videoFileIndex('../video0.webm')).toBeNull();
  });
});

describe('transcription', () => {
  it('refuses a segment that ends before it starts', () => {
    expect(ZTranscriptionSegment.safeParse({ start: 1, end: 2.5, text: 'Hello' }).success).toBe(true);
    expect(ZTranscriptionSegment.safeParse({ start: 3, end: 2, text: 'Hello' }).success).toBe(false);
  });

  it('round-trips merged_url', () => {
    const items = [
      { responseId: ID_A, questionText: 'Why us?', orderPosition: 1, transcription: [{ start: 0, end: 1, text: 'Hi' }], error: null },
      { responseId: ID_B, questionText: 'Would you recommend us?', orderPosition: 2, transcription: [], error: 'No speech' },
    ];
    expect(parseMergedTranscriptions(stringifyMergedTranscriptions(items))).toEqual(items);
    expect(() => parseMergedTranscriptions('{"not":"a list"}')).toThrow();
  });
});

describe('responses', () => {
  it('encode without transforms (the server serializes through them)', () => {
    const detail = {
      testimonial: null,
      error_credit: true,
    };
    expect(z.encode(ZRequestDetailResponse, detail)).toEqual(detail);
    const newUser = {
      isNewUser: true as const,
      user: { sub: 'g-1', email: 'a@b.c', firstname: 'A', lastname: 'B', picture: null },
      token: 'signup-token',
    };
    expect(z.encode(ZProcessAuthCallbackResponse, newUser)).toEqual(newUser);
  });
});

describe('payment', () => {
  it('knows every credit package by its id and nothing else', () => {
    expect([...CREDIT_PACKAGE_IDS].sort()).toEqual(CREDIT_PACKAGES.map((pkg) => pkg.id).sort());
    expect(ZCheckoutSessionBody.safeParse({ priceId: 'medium' }).success).toBe(true);
    expect(messages(ZCheckoutSessionBody, { priceId: 'price_123' })).toEqual(['Unknown credit package']);
  });
});

describe('paths', () => {
  it('builds paths from the route templates', () => {
    expect(API.questions.list.path).toBe('/api/questions/list');
    expect(API.testimonials.remind.path(ID_A)).toBe(`/api/testimonials/request/${ID_A}/remind`);
    expect(API.public.validate.path('tok_en-1')).toBe('/api/public/testimonial/validate/tok_en-1');
    expect(API.transcription.jobStatus.path('job 1/2')).toBe('/api/testimonials/transcription-job/job%201%2F2/status');
    expect(ROUTE_TEMPLATES.testimonials.remind).toBe('/api/testimonials/request/:id/remind');
    expect(ROUTE_TEMPLATES.public.validate).toBe('/api/public/testimonial/validate/:token');
    expect(() => (API.testimonials.pay.path as (...p: string[]) => string)()).toThrow(/Missing path parameter/);
  });

  it('types literal paths as strings and parameterised ones as builders', () => {
    expectTypeOf(API.questions.list.path).toEqualTypeOf<'/api/questions/list'>();
    expectTypeOf(API.testimonials.remind.path).toEqualTypeOf<(id: string) => string>();
    expectTypeOf(ROUTE_TEMPLATES.studio.merge).toEqualTypeOf<'/api/testimonials/:id/merge'>();
  });

  it('has every builder agree with its template, under /api/, once per method and route', () => {
    const seen = new Set<string>();
    for (const { key, endpoint } of listEndpoints()) {
      expect(endpoint.route.startsWith('/api/'), key).toBe(true);
      const signature = `${endpoint.method} ${endpoint.route}`;
      expect(seen.has(signature), signature).toBe(false);
      seen.add(signature);
      const params = endpoint.route.match(/:[A-Za-z_]\w*/g) ?? [];
      const built =
        typeof endpoint.path === 'string' ? endpoint.path : endpoint.path(...params.map((_, i) => `value${i}`));
      let i = 0;
      expect(built, key).toBe(endpoint.route.replace(/:[A-Za-z_]\w*/g, () => `value${i++}`));
    }
  });

  it('routes every built path to its own template (static segments win, as in Fastify)', () => {
    const endpoints = listEndpoints();
    const resolve = (method: string, path: string): string | undefined => {
      const segments = path.split('/');
      const candidates = endpoints
        .filter(({ endpoint }) => endpoint.method === method)
        .map(({ endpoint }) => endpoint.route.split('/'))
        .filter((route) => route.length === segments.length)
        .filter((route) => route.every((part, i) => part.startsWith(':') || part === segments[i]));
      candidates.sort((a, b) => {
        for (let i = 0; i < a.length; i += 1) {
          const aParam = a[i]!.startsWith(':');
          const bParam = b[i]!.startsWith(':');
          if (aParam !== bParam) return aParam ? 1 : -1;
        }
        return 0;
      });
      return candidates[0]?.join('/');
    };
    for (const { key, endpoint } of endpoints) {
      const params = endpoint.route.match(/:[A-Za-z_]\w*/g) ?? [];
      const built = typeof endpoint.path === 'string' ? endpoint.path : endpoint.path(...params.map(() => ID_A));
      expect(resolve(endpoint.method, built), key).toBe(endpoint.route);
    }
  });

  it('marks only /api/public/ paths as public', () => {
    const publicKeys = listEndpoints()
      .filter(({ endpoint }) => isPublicApiPath(endpoint.route))
      .map(({ key }) => key);
    expect(publicKeys).toEqual([
      'public.appConfig',
      'public.validate',
      'public.save',
      'collection.publicLink',
      'collection.start',
      'collection.confirmCode',
      'collection.resendCode',
      'funnel.progress',
    ]);
  });
});
