import { describe, expect, it } from 'vitest';
import { EXPORT_PLATFORM_SPECS } from '../../../../contract/api/studio.schema.js';
import {
  FRACTION_NUDGE,
  areaAround,
  areaAt,
  PREVIEW_MAX_SIDE,
  evenFloor,
  fractionsToPixels,
  answerFrameTime,
  frameTime,
  initialArea,
  isUsableSource,
  keyboardStep,
  maxAreaSize,
  minAreaSize,
  moveArea,
  normaliseArea,
  pixelsToFractions,
  previewSize,
  resizeAroundCentre,
  resizeBySteps,
  resizeFromCorner,
  setDimension,
  setPosition,
  validateCropArea,
  type PixelArea,
  type Size,
} from './crop-math';

const SHORTS = EXPORT_PLATFORM_SPECS.shorts.ratio;
const LINKEDIN = EXPORT_PLATFORM_SPECS.linkedin.ratio;
const LANDSCAPE: Size = { width: 640, height: 360 };
const PORTRAIT: Size = { width: 360, height: 640 };
const SOURCES: Size[] = [
  LANDSCAPE,
  PORTRAIT,
  { width: 640, height: 480 },
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
  { width: 1080, height: 1920 },
  { width: 641, height: 359 },
  { width: 1000, height: 1000 },
  { width: 2, height: 2 },
  { width: 3840, height: 2160 },
];

/** Every invariant an area shown to the person must keep. */
function expectValid(area: PixelArea, source: Size, ratio: number) {
  for (const value of [area.x, area.y, area.width, area.height]) {
    expect(Number.isInteger(value)).toBe(true);
    expect(value % 2).toBe(0);
  }
  expect(area.x).toBeGreaterThanOrEqual(0);
  expect(area.y).toBeGreaterThanOrEqual(0);
  expect(area.width).toBeGreaterThanOrEqual(2);
  expect(area.height).toBeGreaterThanOrEqual(2);
  expect(area.x + area.width).toBeLessThanOrEqual(source.width);
  expect(area.y + area.height).toBeLessThanOrEqual(source.height);
  // The ratio is kept within the rounding of one side to an even number (2 px).
  if (area.width > 2 && area.height > 2) {
    const drivenByHeight = ratio < 1;
    const expectedOther = drivenByHeight ? area.height * ratio : area.width / ratio;
    const other = drivenByHeight ? area.width : area.height;
    expect(Math.abs(other - expectedOther)).toBeLessThanOrEqual(2);
  }
  expect(validateCropArea(pixelsToFractions(area, source)).ok).toBe(true);
}

describe('the starting area', () => {
  it('is 202×360 and centred for 9:16 in a 640×360 source', () => {
    const area = initialArea(LANDSCAPE, SHORTS);
    expect(area).toEqual({ x: 220, y: 0, width: 202, height: 360 });
    expect(Math.abs(area.x - (640 - 202) / 2)).toBeLessThanOrEqual(1);
  });

  it('is the whole frame when the source already has the ratio', () => {
    expect(initialArea(LANDSCAPE, LINKEDIN)).toEqual({ x: 0, y: 0, width: 640, height: 360 });
    expect(initialArea(PORTRAIT, SHORTS)).toEqual({ x: 0, y: 0, width: 360, height: 640 });
    expect(initialArea({ width: 1080, height: 1920 }, SHORTS)).toEqual({ x: 0, y: 0, width: 1080, height: 1920 });
  });

  it('is as large as the ratio allows and centred, for every source and both platforms', () => {
    for (const source of SOURCES) {
      for (const ratio of [SHORTS, LINKEDIN]) {
        const area = initialArea(source, ratio);
        expectValid(area, source, ratio);
        // As large as fits: the bounding side is used fully (up to the even rounding).
        const fillsWidth = source.width - area.width < 2;
        const fillsHeight = source.height - area.height < 2;
        expect(fillsWidth || fillsHeight).toBe(true);
        expect(Math.abs(area.x - (source.width - area.width) / 2)).toBeLessThanOrEqual(1);
        expect(Math.abs(area.y - (source.height - area.height) / 2)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('fits a 16:9 area across a portrait source', () => {
    expect(initialArea(PORTRAIT, LINKEDIN)).toEqual({ x: 0, y: 220, width: 360, height: 202 });
  });
});

describe('moving', () => {
  const start = initialArea(LANDSCAPE, SHORTS);

  it('moves by even steps', () => {
    expect(moveArea(start, -100, 0, LANDSCAPE)).toEqual({ ...start, x: 120 });
    expect(moveArea(start, 7, 0, LANDSCAPE).x).toBe(228);
  });

  it('stops at every edge of the frame', () => {
    expect(moveArea(start, -10_000, -10_000, LANDSCAPE)).toEqual({ ...start, x: 0, y: 0 });
    expect(moveArea(start, 10_000, 10_000, LANDSCAPE)).toEqual({ ...start, x: 438, y: 0 });
    const small = resizeAroundCentre(start, 180, SHORTS, LANDSCAPE);
    const moved = moveArea(small, 10_000, 10_000, LANDSCAPE);
    expect(moved.x + moved.width).toBe(640);
    expect(moved.y + moved.height).toBe(360);
  });

  it('keeps an odd-sized source inside its bounds', () => {
    const source = { width: 641, height: 359 };
    const moved = moveArea(initialArea(source, SHORTS), 10_000, 10_000, source);
    expectValid(moved, source, SHORTS);
  });

  it('places the area where the X and Y fields say, clamped to the frame', () => {
    expect(setPosition(start, { x: 100 }, LANDSCAPE)).toEqual({ ...start, x: 100 });
    expect(setPosition(start, { x: 101 }, LANDSCAPE).x % 2).toBe(0);
    expect(setPosition(start, { x: 5000 }, LANDSCAPE).x).toBe(438);
    expect(setPosition(start, { x: -40, y: 20 }, LANDSCAPE)).toEqual({ ...start, x: 0, y: 0 });
  });

  it('has a keyboard step of about 1 % of the longer side', () => {
    expect(keyboardStep(LANDSCAPE)).toBe(6);
    expect(keyboardStep({ width: 1920, height: 1080 })).toBe(20);
    expect(keyboardStep({ width: 2, height: 2 })).toBe(2);
  });
});

describe('resizing', () => {
  const start = initialArea(LANDSCAPE, SHORTS);

  it('never grows beyond the largest area nor shrinks below the smallest', () => {
    expect(resizeAroundCentre(start, 10_000, SHORTS, LANDSCAPE)).toEqual(start);
    const smallest = resizeAroundCentre(start, 0, SHORTS, LANDSCAPE);
    expect({ width: smallest.width, height: smallest.height }).toEqual(minAreaSize(LANDSCAPE, SHORTS));
    expectValid(smallest, LANDSCAPE, SHORTS);
    expect(smallest.height).toBe(36);
  });

  it('keeps the centre while shrinking with the keyboard, and the ratio', () => {
    const smaller = resizeBySteps(start, -10, SHORTS, LANDSCAPE);
    expect(smaller.height).toBe(300);
    expect(smaller.width).toBe(168);
    expect(Math.abs(smaller.x + smaller.width / 2 - (start.x + start.width / 2))).toBeLessThanOrEqual(2);
    expect(Math.abs(smaller.y + smaller.height / 2 - (start.y + start.height / 2))).toBeLessThanOrEqual(2);
    expectValid(smaller, LANDSCAPE, SHORTS);
    const back = resizeBySteps(smaller, 10, SHORTS, LANDSCAPE);
    expect({ width: back.width, height: back.height }).toEqual({ width: start.width, height: start.height });
    expect(Math.abs(back.x - start.x)).toBeLessThanOrEqual(2);
  });

  it('moves a grown area back inside the frame', () => {
    const corner = moveArea(resizeAroundCentre(start, 100, SHORTS, LANDSCAPE), -1000, -1000, LANDSCAPE);
    const grown = resizeAroundCentre(corner, 360, SHORTS, LANDSCAPE);
    expect(grown).toEqual({ x: 0, y: 0, width: 202, height: 360 });
  });

  it('resizes from each corner with the opposite corner anchored', () => {
    const small = moveArea(resizeAroundCentre(start, 200, SHORTS, LANDSCAPE), 0, 0, LANDSCAPE);
    expectValid(small, LANDSCAPE, SHORTS);
    const right = small.x + small.width;
    const bottom = small.y + small.height;

    const se = resizeFromCorner(small, 'se', { x: right + 30, y: bottom + 60 }, SHORTS, LANDSCAPE);
    expect([se.x, se.y]).toEqual([small.x, small.y]);
    expect(se.height).toBeGreaterThan(small.height);
    expectValid(se, LANDSCAPE, SHORTS);

    const nw = resizeFromCorner(small, 'nw', { x: small.x - 20, y: small.y - 40 }, SHORTS, LANDSCAPE);
    expect([nw.x + nw.width, nw.y + nw.height]).toEqual([right, bottom]);
    expectValid(nw, LANDSCAPE, SHORTS);

    const ne = resizeFromCorner(small, 'ne', { x: right - 20, y: small.y + 40 }, SHORTS, LANDSCAPE);
    expect([ne.x, ne.y + ne.height]).toEqual([small.x, bottom]);
    expect(ne.height).toBeLessThan(small.height);
    expectValid(ne, LANDSCAPE, SHORTS);

    const sw = resizeFromCorner(small, 'sw', { x: small.x - 500, y: bottom + 500 }, SHORTS, LANDSCAPE);
    expect([sw.x + sw.width, sw.y]).toEqual([right, small.y]);
    expectValid(sw, LANDSCAPE, SHORTS);
  });

  it('stops a corner drag at the frame and at the smallest size', () => {
    for (const ratio of [SHORTS, LINKEDIN]) {
      for (const source of SOURCES) {
        const area = resizeAroundCentre(initialArea(source, ratio), 0, ratio, source);
        for (const corner of ['nw', 'ne', 'sw', 'se'] as const) {
          for (const pointer of [
            { x: -5000, y: -5000 },
            { x: 5000, y: 5000 },
            { x: -5000, y: 5000 },
            { x: 5000, y: -5000 },
            { x: area.x + 1, y: area.y + 1 },
            { x: source.width / 2, y: source.height / 2 },
          ]) {
            expectValid(resizeFromCorner(area, corner, pointer, ratio, source), source, ratio);
          }
        }
      }
    }
  });

  it('takes the largest area not above a typed width or height', () => {
    const byWidth = setDimension(start, 'width', 150, SHORTS, LANDSCAPE);
    expect(byWidth.width).toBeLessThanOrEqual(150);
    expect(byWidth.width).toBeGreaterThanOrEqual(148);
    expect(byWidth.x).toBe(start.x);
    expectValid(byWidth, LANDSCAPE, SHORTS);
    expect(setDimension(start, 'width', 202, SHORTS, LANDSCAPE)).toEqual(start);
    expect(setDimension(start, 'height', 10_000, SHORTS, LANDSCAPE)).toEqual(start);
    expect(setDimension(start, 'height', 1, SHORTS, LANDSCAPE).height).toBe(minAreaSize(LANDSCAPE, SHORTS).height);

    const wide = initialArea({ width: 1920, height: 1080 }, LINKEDIN);
    const typed = setDimension(wide, 'height', 540, LINKEDIN, { width: 1920, height: 1080 });
    expect(typed).toEqual({ x: 0, y: 0, width: 960, height: 540 });
  });

  it('moves the area when a typed size would leave the frame', () => {
    const right = moveArea(resizeAroundCentre(start, 100, SHORTS, LANDSCAPE), 1000, 0, LANDSCAPE);
    const grown = setDimension(right, 'height', 360, SHORTS, LANDSCAPE);
    expect(grown).toEqual({ x: 438, y: 0, width: 202, height: 360 });
  });

  it('brings an area of another ratio back to a valid one', () => {
    const shorts = initialArea(LANDSCAPE, SHORTS);
    const linkedin = normaliseArea(shorts, LINKEDIN, LANDSCAPE);
    expectValid(linkedin, LANDSCAPE, LINKEDIN);
  });
});

describe('sizes', () => {
  it('rounds down to even numbers', () => {
    expect(evenFloor(202.5)).toBe(202);
    expect(evenFloor(203)).toBe(202);
    expect(evenFloor(-3)).toBe(0);
  });

  it('knows the largest and the smallest areas', () => {
    expect(maxAreaSize(LANDSCAPE, SHORTS)).toEqual({ width: 202, height: 360 });
    expect(maxAreaSize({ width: 1280, height: 720 }, SHORTS)).toEqual({ width: 404, height: 720 });
    expect(maxAreaSize({ width: 1000, height: 1000 }, LINKEDIN)).toEqual({ width: 1000, height: 562 });
    expect(minAreaSize(LANDSCAPE, LINKEDIN)).toEqual({ width: 64, height: 36 });
  });

  it('refuses unusable sources', () => {
    expect(isUsableSource({ width: 0, height: 360 })).toBe(false);
    expect(isUsableSource({ width: 640, height: 0 })).toBe(false);
    expect(isUsableSource({ width: Number.NaN, height: 360 })).toBe(false);
    expect(isUsableSource({ width: 1, height: 360 })).toBe(false);
    expect(isUsableSource(LANDSCAPE)).toBe(true);
    expect(() => fractionsToPixels({ x: 0, y: 0, width: 1, height: 1 }, { width: 0, height: 0 })).toThrow('Invalid video dimensions');
  });
});

describe('pixels and fractions', () => {
  it('turns the starting area into fractions of the frame', () => {
    const fractions = pixelsToFractions(initialArea(LANDSCAPE, SHORTS), LANDSCAPE);
    expect(fractions.x).toBeCloseTo(220 / 640, 12);
    expect(fractions.y).toBe(0);
    expect(fractions.width).toBeCloseTo(202 / 640, 8);
    expect(fractions.height).toBe(1);
  });

  it('gives back the same even pixels on the way back, for every even size and offset', () => {
    for (const source of [LANDSCAPE, PORTRAIT, { width: 1920, height: 1080 }, { width: 641, height: 359 }, { width: 1000, height: 1000 }]) {
      for (let width = 2; width <= source.width - 1; width += 2) {
        const height = Math.min(evenFloor(source.height), Math.max(2, evenFloor(width * 0.75)));
        const x = evenFloor((source.width - width) / 3);
        const y = evenFloor(source.height - height);
        const area = { x, y, width, height };
        const fractions = pixelsToFractions(area, source);
        expect(validateCropArea(fractions).ok).toBe(true);
        expect(fractionsToPixels(fractions, source)).toEqual(area);
      }
    }
  });

  it('is refused by the contract only for areas that do not fit, whatever the nudge', () => {
    const full = pixelsToFractions({ x: 0, y: 0, width: 640, height: 360 }, LANDSCAPE);
    expect(full).toEqual({ x: 0, y: 0, width: 1, height: 1 });
    const right = pixelsToFractions({ x: 438, y: 0, width: 202, height: 360 }, LANDSCAPE);
    expect(right.x + right.width).toBeGreaterThan(1);
    expect(right.x + right.width - 1).toBeLessThanOrEqual(FRACTION_NUDGE * 2);
    expect(validateCropArea(right).ok).toBe(true);
  });

  it('rounds arbitrary fractions to even pixels inside the frame, as the renderer does', () => {
    expect(fractionsToPixels({ x: 0.3, y: 0.1, width: 0.33, height: 0.9 }, LANDSCAPE)).toEqual({ x: 192, y: 36, width: 210, height: 324 });
    expect(fractionsToPixels({ x: 1, y: 1, width: 1, height: 1 }, { width: 641, height: 359 })).toEqual({ x: 0, y: 0, width: 640, height: 358 });
    expect(fractionsToPixels({ x: 0.999, y: 0, width: 0.0001, height: 0.0001 }, LANDSCAPE)).toEqual({ x: 638, y: 0, width: 2, height: 2 });
  });
});

describe('crop validation (§5)', () => {
  const valid = { x: 0.25, y: 0, width: 0.5, height: 1 };

  it('accepts areas inside the frame, edges included', () => {
    expect(validateCropArea(valid)).toEqual({ ok: true, area: valid });
    expect(validateCropArea({ x: 0, y: 0, width: 1, height: 1 }).ok).toBe(true);
    expect(validateCropArea({ x: 0.5, y: 0.5, width: 0.5, height: 0.5 }).ok).toBe(true);
    expect(validateCropArea({ x: 1 - 1e-7, y: 0, width: 1e-7 + 1e-7, height: 1 }).ok).toBe(true);
  });

  const refused: [string, unknown, string][] = [
    ['x not a number', { ...valid, x: '0.2' }, 'x'],
    ['y not a number', { ...valid, y: null }, 'y'],
    ['width not a number', { ...valid, width: undefined }, 'width'],
    ['height not a number', { ...valid, height: true }, 'height'],
    ['x NaN', { ...valid, x: Number.NaN }, 'x'],
    ['y infinite', { ...valid, y: Number.POSITIVE_INFINITY }, 'y'],
    ['width infinite', { ...valid, width: Number.POSITIVE_INFINITY }, 'width'],
    ['x below 0', { ...valid, x: -0.01 }, 'x'],
    ['x above 1', { ...valid, x: 1.01, width: 0.1 }, 'x'],
    ['y below 0', { ...valid, y: -1 }, 'y'],
    ['y above 1', { ...valid, y: 2, height: 0.1 }, 'y'],
    ['width 0', { ...valid, width: 0 }, 'width'],
    ['width negative', { ...valid, width: -0.5 }, 'width'],
    ['width above 1', { x: 0, y: 0, width: 1.5, height: 1 }, 'width'],
    ['height 0', { ...valid, height: 0 }, 'height'],
    ['height negative', { ...valid, height: -0.1 }, 'height'],
    ['height above 1', { x: 0, y: 0, width: 1, height: 1.01 }, 'height'],
    ['x + width above 1', { x: 0.6, y: 0, width: 0.5, height: 1 }, 'width'],
    ['y + height above 1', { x: 0, y: 0.2, width: 0.5, height: 0.9 }, 'height'],
    ['x + width above 1 by more than the tolerance', { x: 0.5, y: 0, width: 0.5 + 1e-5, height: 1 }, 'width'],
    ['x at 1 with any width', { x: 1, y: 0, width: 0.01, height: 1 }, 'width'],
  ];

  for (const [name, area, field] of refused) {
    it(`refuses ${name}`, () => {
      const result = validateCropArea(area);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.field).toBe(field);
        expect(result.message.length).toBeGreaterThan(0);
      }
    });
  }

  it('refuses a missing field and things that are not areas', () => {
    expect(validateCropArea({ x: 0, y: 0, width: 1 }).ok).toBe(false);
    expect(validateCropArea(null).ok).toBe(false);
    expect(validateCropArea('0,0,1,1').ok).toBe(false);
  });
});

describe('the preview', () => {
  it('is never larger than 800 px on either side, and never enlarged', () => {
    expect(previewSize({ width: 1920, height: 1080 })).toEqual({ width: 800, height: 450, scale: 800 / 1920 });
    expect(previewSize({ width: 1080, height: 1920 })).toMatchObject({ width: 450, height: 800 });
    expect(previewSize(LANDSCAPE)).toEqual({ width: 640, height: 360, scale: 1 });
    expect(previewSize({ width: 3840, height: 2160 }).width).toBe(PREVIEW_MAX_SIDE);
  });

  it('fits the room available (a phone-wide dialog) with the proportions kept', () => {
    const phone = previewSize(LANDSCAPE, { maxWidth: 327 });
    expect(phone.width).toBe(327);
    expect(phone.height).toBe(Math.floor(360 * (327 / 640)));
    const short = previewSize({ width: 1080, height: 1920 }, { maxWidth: 700, maxHeight: 480 });
    expect(short.height).toBe(480);
    expect(short.width).toBe(270);
  });

  it('takes the frame at 1 s, capped at the duration', () => {
    expect(frameTime(3)).toBe(1);
    expect(frameTime(0.4)).toBe(0.4);
    expect(frameTime(Number.POSITIVE_INFINITY)).toBe(1);
    expect(frameTime(Number.NaN)).toBe(1);
  });

  it("takes the answer's frame at 1 s, later in a long clip (a fifth in, at most 3 s), the middle of a very short one", () => {
    expect(answerFrameTime(5)).toBe(1);
    expect(answerFrameTime(3)).toBe(1);
    expect(answerFrameTime(10)).toBe(2);
    expect(answerFrameTime(20)).toBe(3);
    expect(answerFrameTime(60)).toBe(3);
    expect(answerFrameTime(1.2)).toBeCloseTo(0.6);
    // A WebM as recorded has no duration: 1 s, as the spec says.
    expect(answerFrameTime(Number.POSITIVE_INFINITY)).toBe(1);
    expect(answerFrameTime(Number.NaN)).toBe(1);
    for (const d of [0.4, 1, 2, 7.5, 19.9]) expect(answerFrameTime(d)).toBeLessThan(d);
  });
});

describe('areas of further formats and of the smart crop (issue 31)', () => {
  const source = { width: 1280, height: 720 };

  it('frames another format around the chosen area’s centre, as large as its ratio allows, inside the frame', () => {
    const chosen = { x: 400, y: 0, width: 404, height: 720 };
    const square = areaAround(chosen, 1, source);
    expect(square).toEqual({ x: 242, y: 0, width: 720, height: 720 });
    // Near the edge it is moved back inside the frame.
    expect(areaAround({ ...chosen, x: 876 }, 1, source)).toEqual({ x: 560, y: 0, width: 720, height: 720 });
    const portrait = areaAround(chosen, 4 / 5, source);
    expect(portrait.height).toBe(720);
    expect(portrait.width).toBe(576);
    expect(portrait.x + portrait.width / 2).toBe(chosen.x + chosen.width / 2);
    // Pushed back inside at the edge: a 16:9 area is the whole frame.
    expect(areaAround(chosen, 16 / 9, source)).toEqual({ x: 0, y: 0, width: 1280, height: 720 });
  });

  it('centres the first area on the centre of motion, moved as little as needed to fit', () => {
    const vertical = areaAt({ x: 0.77, y: 0.69 }, source, 9 / 16);
    expect(vertical.height).toBe(720);
    expect(Math.abs(vertical.x + vertical.width / 2 - 0.77 * 1280)).toBeLessThanOrEqual(2);
    expect(areaAt({ x: 0.99, y: 0.5 }, source, 1)).toEqual({ x: 560, y: 0, width: 720, height: 720 });
    expect(areaAt({ x: 0.5, y: 0.5 }, source, 9 / 16)).toEqual(initialArea(source, 9 / 16));
  });
});
