import i18next from 'i18next';
import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOGO_NOT_IMAGE_MESSAGE, LOGO_TOO_LARGE_MESSAGE, LOGO_TOO_MANY_PIXELS_MESSAGE } from '../../../../contract/api/settings.schema.js';
import en from '../../../i18n/en.json';
import fr from '../../../i18n/fr.json';
import { ApiError } from '../../../lib/api-client';
import { failureMessage, messageText } from './settings-messages';

const translator = async (lng: 'en' | 'fr'): Promise<TFunction> => {
  const instance = i18next.createInstance();
  await instance.init({
    lng,
    resources: { en: { translation: en }, fr: { translation: fr } },
    interpolation: { escapeValue: false },
  });
  return instance.t;
};

describe('failure messages (spec §8)', () => {
  let tEn: TFunction;
  let tFr: TFunction;
  beforeAll(async () => {
    tEn = await translator('en');
    tFr = await translator('fr');
  });

  it("shows the server's error field in English", () => {
    const error = new ApiError({
      status: 400,
      code: 'invalid_data',
      message: 'font_size_question: Font size must be between 12 and 72.',
    });
    expect(messageText(tEn, failureMessage(error, 'generic', 'en'))).toBe(
      'font_size_question: Font size must be between 12 and 72.',
    );
  });

  it('translates what it knows: name_exists, the logo checks, and the backend code outside English', () => {
    const taken = new ApiError({
      status: 409,
      code: 'name_exists',
      message: 'A company with this name already exists. Please choose another name.',
    });
    expect(messageText(tEn, failureMessage(taken, 'generic', 'en'))).toBe(
      'A company with this name already exists. Please choose another name.',
    );
    expect(messageText(tFr, failureMessage(taken, 'generic', 'fr'))).toBe(
      'Une entreprise porte déjà ce nom. Veuillez en choisir un autre.',
    );

    const tooLarge = new ApiError({
      status: 413,
      code: 'payload_too_large',
      message: LOGO_TOO_LARGE_MESSAGE,
    });
    expect(messageText(tEn, failureMessage(tooLarge, 'uploadGeneric', 'en'))).toBe('File size must be less than 5MB');
    expect(messageText(tFr, failureMessage(tooLarge, 'uploadGeneric', 'fr'))).toBe(
      'La taille du fichier doit être inférieure à 5 Mo',
    );

    const kinds = new ApiError({
      status: 400,
      code: 'invalid_format',
      message: `${LOGO_NOT_IMAGE_MESSAGE} (PNG, JPEG, WebP or GIF).`,
    });
    expect(messageText(tEn, failureMessage(kinds, 'uploadGeneric', 'en'))).toBe(
      'Please select an image file (PNG, JPEG, WebP or GIF)',
    );

    // A picture with too many pixels (issue 15, item 7): shown in the person's language.
    const pixels = new ApiError({ status: 400, code: 'invalid_format', message: LOGO_TOO_MANY_PIXELS_MESSAGE });
    expect(messageText(tEn, failureMessage(pixels, 'uploadGeneric', 'en'))).toBe(LOGO_TOO_MANY_PIXELS_MESSAGE);
    expect(messageText(tFr, failureMessage(pixels, 'uploadGeneric', 'fr'))).toBe(
      'Cette image est trop grande : 4096 × 4096 pixels au plus (16 mégapixels). Veuillez choisir une image plus petite.',
    );

    const other = new ApiError({
      status: 429,
      code: 'rate_limited',
      message: 'Too many requests, retry in 10 s.',
    });
    expect(messageText(tFr, failureMessage(other, 'generic', 'fr'))).toBe(tFr('errors.codes.rate_limited'));
  });

  it('falls back to a generic message when the server said nothing usable', () => {
    const offline = new ApiError({
      status: 0,
      code: 'unknown',
      message: 'Failed to fetch',
    });
    expect(messageText(tEn, failureMessage(offline, 'generic', 'en'))).toBe(
      "Your changes couldn't be saved. Please try again.",
    );
    expect(messageText(tEn, failureMessage(new Error('boom'), 'uploadGeneric', 'en'))).toBe(
      "Your logo couldn't be uploaded. Please try again.",
    );
    const unknownFr = new ApiError({
      status: 500,
      code: 'unknown',
      message: 'Something broke',
    });
    expect(messageText(tFr, failureMessage(unknownFr, 'generic', 'fr'))).toBe(
      'Vos modifications n’ont pas pu être enregistrées. Veuillez réessayer.',
    );
  });

  it("shows the spec's logo messages word for word in English", () => {
    expect(messageText(tEn, { key: 'notImage' })).toBe(LOGO_NOT_IMAGE_MESSAGE);
    expect(messageText(tEn, { key: 'tooLarge' })).toBe(LOGO_TOO_LARGE_MESSAGE);
    expect(messageText(tEn, { key: 'fontSize', values: { min: 12, max: 48 } })).toBe('Size must be between 12 and 48');
    expect(messageText(tFr, { key: 'fontSize', values: { min: 12, max: 72 } })).toBe(
      'La taille doit être comprise entre 12 et 72',
    );
  });
});
