import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VIDEO_STYLE } from '../../contract/constants.js';
import { databaseAtMigration, type DatabaseAtMigration } from '../test/migrations.js';

/**
 * Migration 0012 gives new companies the designed default (DEFAULT_VIDEO_STYLE, the 'ink' theme) as the
 * column defaults of video_style_settings. A database at 0011 holds a company on the old defaults and
 * one with a style of its own; after the migration both keep what they had, and a new row gets the new
 * defaults.
 */

const OLD_DEFAULTS = '11111111-1111-4111-8111-111111111111';
const CUSTOM = '11111111-1111-4111-8111-111111111112';
const NEW = '11111111-1111-4111-8111-111111111113';

const STYLE_COLUMNS = [
  'font_size_question',
  'font_color_question',
  'font_style_question',
  'font_bold_question',
  'font_size_subtitle',
  'font_color_subtitle',
  'font_style_subtitle',
  'font_bold_subtitle',
  'subtitle_border',
  'background_color',
  'show_logo_in_videos',
] as const;

describe('migration 0012: the designed default style', () => {
  let pg: PGlite;
  let db: DatabaseAtMigration | undefined;

  beforeAll(async () => {
    db = await databaseAtMigration(11);
    pg = db.pg;
    await pg.exec(`
      insert into companies (id, name) values ('${OLD_DEFAULTS}', 'Old defaults'), ('${CUSTOM}', 'Custom'), ('${NEW}', 'New');
      insert into video_style_settings (company_id) values ('${OLD_DEFAULTS}');
      insert into video_style_settings (company_id, font_size_question, font_style_question, font_bold_question, background_color, font_size_subtitle)
        values ('${CUSTOM}', 52, 'Georgia', true, '#1e3a8a', 28);
    `);
    await db.upgrade();
  });
  afterAll(async () => {
    await db?.close();
  });

  const style = async (companyId: string) =>
    (await pg.query<Record<(typeof STYLE_COLUMNS)[number], unknown>>(`select ${STYLE_COLUMNS.join(', ')} from video_style_settings where company_id = $1`, [companyId]))
      .rows[0];

  it('keeps the style of existing companies, the old defaults included', async () => {
    expect(await style(OLD_DEFAULTS)).toEqual({
      font_size_question: 36,
      font_color_question: '#ffffff',
      font_style_question: 'Arial',
      font_bold_question: false,
      font_size_subtitle: 24,
      font_color_subtitle: '#ffffff',
      font_style_subtitle: 'Arial',
      font_bold_subtitle: false,
      subtitle_border: true,
      background_color: '#000000',
      show_logo_in_videos: false,
    });
    expect(await style(CUSTOM)).toMatchObject({ font_size_question: 52, font_style_question: 'Georgia', font_bold_question: true, background_color: '#1e3a8a', font_size_subtitle: 28 });
  });

  it('gives a row written afterwards DEFAULT_VIDEO_STYLE', async () => {
    await pg.exec(`insert into video_style_settings (company_id) values ('${NEW}')`);
    const expected = Object.fromEntries(STYLE_COLUMNS.map((column) => [column, DEFAULT_VIDEO_STYLE[column]]));
    expect(await style(NEW)).toEqual(expected);
  });
});
