import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../../lib/cn';
import { cssFamily, previewFont } from './preview-fonts';
import type { PreviewFont } from './preview-fonts';
import { Checkbox } from '../../../components/checkbox';
import { layoutCard, layoutSubtitle, overlayZones, PREVIEW_FORMATS, PREVIEW_FRAMES, PREVIEW_RATIOS, settingsSize } from './preview-layout';
import type { MeasureAscent, MeasureText, PreviewFrame, TPreviewFormat } from './preview-layout';
import type { TPreviewStyle } from './settings-form';
import { LOGO_PLATE_COLOR, LOGO_PLATE_MARGIN_RATIO } from '../../../../contract/logo-contrast.js';
import { LOWER_THIRD_PLATE_OPACITY } from '../../../../contract/frame-layout.js';
import { previewEndCard, previewLowerThird } from './preview-extras';
import type { TCaptionStyle } from '../../../../contract/constants.js';
import { WordCaptionFrame } from './word-caption-frame';
import { wordCaptionClearance } from '../../../../contract/word-captions.js';

export type TPreviewFrame = 'intro' | 'subtitle' | 'lowerThird' | 'endCard';

/** The canvas the preview measures text with; null where there is none. Made on first use. */
let measuringContext: CanvasRenderingContext2D | null | undefined;

/** Width and ink ascent of a text drawn with a preview font; null without a canvas. */
function textMetrics(
  text: string,
  fontSize: number,
  weight: number,
  font: PreviewFont,
): { width: number; ascent: number } | null {
  if (measuringContext === undefined) {
    try {
      measuringContext = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    } catch {
      measuringContext = null;
    }
  }
  if (!measuringContext) return null;
  measuringContext.font = `${weight} ${fontSize}px ${cssFamily(font)}`;
  measuringContext.textBaseline = 'alphabetic';
  const metrics = measuringContext.measureText(text);
  return { width: metrics.width, ascent: metrics.actualBoundingBoxAscent };
}

interface Measurer {
  width: MeasureText;
  /** Undefined without a canvas: the layout then uses the font's capital height. */
  ascent: MeasureAscent | undefined;
}

/**
 * Measures text with the shipped fonts (a canvas), again once the font file has arrived. Without a
 * canvas, an average glyph width stands in.
 */
function useMeasure(font: PreviewFont, weight: number): Measurer {
  const [fontsVersion, setFontsVersion] = useState(0);
  useEffect(() => {
    if (typeof document === 'undefined' || !('fonts' in document)) return;
    let alive = true;
    document.fonts
      .load(`${weight} 32px ${cssFamily(font)}`)
      .then(() => alive && setFontsVersion((v) => v + 1))
      .catch((error: unknown) => console.warn(`The preview font ${font.family} could not be loaded.`, error));
    return () => {
      alive = false;
    };
  }, [font, weight]);
  return useMemo(() => {
    // A new version means the real font is in: the same text measures differently now.
    void fontsVersion;
    const canMeasure = textMetrics('H', 10, weight, font) !== null;
    return {
      width: (text: string, fontSize: number) =>
        textMetrics(text, fontSize, weight, font)?.width ?? text.length * fontSize * 0.55,
      ascent: canMeasure
        ? (text: string, fontSize: number) => textMetrics(text, fontSize, weight, font)?.ascent ?? 0
        : undefined,
    };
  }, [font, weight, fontsVersion]);
}

/** Makes a useId value usable in an SVG url(#…) reference. */
function svgId(raw: string): string {
  return `p${raw.replace(/[^a-zA-Z0-9_-]/g, '')}`;
}

/** The size of the interview scene below, which is drawn to cover any frame (as an export crops the answer). */
const SCENE = { width: 960, height: 540 } as const;

/**
 * A defocused interview scene standing in for the customer's video: bright and dark areas, as in a real
 * one, so the outline's effect on legibility shows. It covers the frame and is centred on the speaker,
 * as a 9:16 export crops the answer around the face.
 */
function VideoBackdrop({ id, frame }: { id: string; frame: PreviewFrame }) {
  const ref = (name: string) => `url(#${id}-${name})`;
  const scale = Math.max(frame.width / SCENE.width, frame.height / SCENE.height);
  const dx = (frame.width - SCENE.width * scale) / 2;
  const dy = (frame.height - SCENE.height * scale) / 2;
  return (
    <g aria-hidden="true" transform={`translate(${dx} ${dy}) scale(${scale})`}>
      <defs>
        <linearGradient id={`${id}-room`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4a5963" />
          <stop offset="0.55" stopColor="#2e3841" />
          <stop offset="1" stopColor="#1c2229" />
        </linearGradient>
        <radialGradient id={`${id}-lamp`}>
          <stop offset="0" stopColor="#ffd9a0" stopOpacity="0.95" />
          <stop offset="1" stopColor="#ffd9a0" stopOpacity="0" />
        </radialGradient>
        <linearGradient id={`${id}-window`} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#eef4f7" />
          <stop offset="1" stopColor="#b7cbd4" />
        </linearGradient>
        <linearGradient id={`${id}-shirt`} x1="0" y1="0" x2="1" y2="0">
          <stop offset="0" stopColor="#2c3a52" />
          <stop offset="0.6" stopColor="#3d4f6d" />
          <stop offset="1" stopColor="#506586" />
        </linearGradient>
        <radialGradient id={`${id}-skin`} cx="0.62" cy="0.38" r="0.75">
          <stop offset="0" stopColor="#e9c2a2" />
          <stop offset="0.7" stopColor="#c48f6c" />
          <stop offset="1" stopColor="#8f5f45" />
        </radialGradient>
        <linearGradient id={`${id}-hair`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#2a1d17" />
          <stop offset="1" stopColor="#4a3328" />
        </linearGradient>
        <radialGradient id={`${id}-vignette`} cx="0.5" cy="0.5" r="0.75">
          <stop offset="0.6" stopColor="#000000" stopOpacity="0" />
          <stop offset="1" stopColor="#000000" stopOpacity="0.35" />
        </radialGradient>
        <filter id={`${id}-far`} x="-20%" y="-20%" width="140%" height="140%">
          <feGaussianBlur stdDeviation="14" />
        </filter>
        <filter id={`${id}-near`} x="-10%" y="-10%" width="120%" height="120%">
          <feGaussianBlur stdDeviation="4" />
        </filter>
      </defs>
      <rect width={SCENE.width} height={SCENE.height} fill={ref('room')} />
      <g filter={ref('far')}>
        <rect x="610" y="30" width="300" height="330" rx="6" fill={ref('window')} opacity="0.9" />
        <rect x="752" y="30" width="14" height="330" fill="#5d6b74" />
        <rect x="610" y="188" width="300" height="12" fill="#5d6b74" />
        <rect x="40" y="300" width="300" height="20" fill="#6b5642" />
        <rect x="60" y="240" width="40" height="60" fill="#8aa17a" />
        <rect x="120" y="225" width="26" height="75" fill="#c9b28d" />
        <rect x="160" y="250" width="34" height="50" fill="#7d93b0" />
        <circle cx="150" cy="110" r="90" fill={ref('lamp')} />
        <circle cx="265" cy="170" r="26" fill="#ffe7bf" opacity="0.45" />
        <circle cx="330" cy="95" r="18" fill="#ffe7bf" opacity="0.35" />
        <rect x="0" y="430" width={SCENE.width} height="110" fill="#d9ccbb" opacity="0.6" />
      </g>
      <g filter={ref('near')}>
        <path d="M268 540 C 276 452, 340 404, 430 392 L 530 392 C 620 404, 684 452, 692 540 Z" fill={ref('shirt')} />
        <path d="M446 332 L 446 396 C 460 414, 500 414, 514 396 L 514 332 Z" fill="#a8734f" />
        <path d="M430 396 L 480 444 L 530 396 L 514 392 L 480 420 L 446 392 Z" fill="#e8edf3" opacity="0.9" />
        <ellipse cx="480" cy="262" rx="70" ry="88" fill={ref('skin')} />
        <path
          d="M404 262 C 396 188, 440 154, 486 154 C 536 156, 566 188, 558 262 C 552 236, 540 214, 520 206 C 486 220, 440 222, 418 214 C 410 228, 406 244, 404 262 Z"
          fill={ref('hair')}
        />
      </g>
      <rect width={SCENE.width} height={SCENE.height} fill={ref('vignette')} />
    </g>
  );
}

/**
 * What Reels, TikTok and Shorts draw over a 9:16 video, faintly: the tabs at the top, the buttons on the
 * right, the caption and music line at the bottom. Text and logo stay out of them (the safe area).
 */
function OverlayZones({ frame }: { frame: PreviewFrame }) {
  const zones = overlayZones(frame);
  if (!zones) return null;
  const u = frame.width / 1080;
  const { top, bottom, right } = zones;
  const shade = { fill: '#000000', opacity: 0.28 };
  const ink = { fill: '#ffffff', opacity: 0.7 };
  const buttonsX = right.x + right.width / 2;
  return (
    <g aria-hidden="true" data-testid="preview-overlay-zones">
      <rect {...top} {...shade} />
      <rect {...bottom} {...shade} />
      <rect {...right} {...shade} />
      <rect x={frame.width / 2 - 190 * u} y={top.height / 2 - 10 * u} width={150 * u} height={20 * u} rx={10 * u} {...ink} />
      <rect x={frame.width / 2 + 40 * u} y={top.height / 2 - 10 * u} width={150 * u} height={20 * u} rx={10 * u} {...ink} opacity={0.45} />
      {[0, 1, 2, 3].map((i) => (
        <circle key={i} cx={buttonsX} cy={right.y + right.height - (90 + i * 150) * u} r={42 * u} {...ink} />
      ))}
      <circle cx={76 * u + 34 * u} cy={bottom.y + 90 * u} r={34 * u} {...ink} />
      <rect x={76 * u + 90 * u} y={bottom.y + 78 * u} width={260 * u} height={24 * u} rx={12 * u} {...ink} />
      <rect x={76 * u} y={bottom.y + 160 * u} width={700 * u} height={22 * u} rx={11 * u} {...ink} opacity={0.55} />
      <rect x={76 * u} y={bottom.y + 210 * u} width={520 * u} height={22 * u} rx={11 * u} {...ink} opacity={0.55} />
      <rect x={76 * u} y={bottom.y + 300 * u} width={frame.width - 152 * u} height={72 * u} rx={36 * u} fill="#ffffff" opacity={0.35} />
    </g>
  );
}

/** A picture's width-to-height ratio once it loads (null before, or when it does not load). */
function useImageAspect(url: string | null): number | null {
  const [aspect, setAspect] = useState<{ url: string; value: number } | null>(null);
  useEffect(() => {
    if (!url) return;
    const img = new Image();
    img.onload = () => {
      if (img.naturalWidth > 0 && img.naturalHeight > 0) setAspect({ url, value: img.naturalWidth / img.naturalHeight });
    };
    img.src = url;
    return () => {
      img.onload = null;
    };
  }, [url]);
  return aspect && aspect.url === url ? aspect.value : null;
}

/**
 * The logo in its band, as render.ts logoChain draws it: fitted to the band, or, on the light plate
 * (decision 172), fitted to the band less the plate's margin and centred on a plate of the band's height.
 */
function PreviewLogo({ url, band, plate }: { url: string; band: { x: number; y: number; width: number; height: number }; plate: boolean }) {
  const aspect = useImageAspect(plate ? url : null);
  if (!plate || aspect === null) {
    return <image href={url} x={band.x} y={band.y} width={band.width} height={band.height} preserveAspectRatio="xMidYMid meet" data-testid="preview-logo" />;
  }
  const m = Math.max(2, Math.round(band.height * LOGO_PLATE_MARGIN_RATIO));
  const inner = { width: band.width - 2 * m, height: band.height - 2 * m };
  const logoWidth = Math.min(inner.width, inner.height * aspect);
  const plateWidth = logoWidth + 2 * m;
  const x = band.x + (band.width - plateWidth) / 2;
  return (
    <g data-testid="preview-logo-plate">
      <rect x={x} y={band.y} width={plateWidth} height={band.height} fill={LOGO_PLATE_COLOR} />
      <image href={url} x={x + m} y={band.y + m} width={logoWidth} height={inner.height} preserveAspectRatio="xMidYMid meet" data-testid="preview-logo" />
    </g>
  );
}

/** The intro card as the renderer draws it: background, the question's lines, the logo in its band. */
export function IntroCardFrame({
  style,
  question,
  frame,
  showZones = false,
  className,
}: {
  style: TPreviewStyle;
  question: string;
  frame: PreviewFrame;
  showZones?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  const font = previewFont(style.question.font);
  const measure = useMeasure(font, style.question.bold && font.hasBold ? 700 : 400);
  const showLogo = style.showLogo && Boolean(style.logoUrl);
  const layout = layoutCard({
    text: question,
    size: style.question.size,
    bold: style.question.bold,
    font: style.question.font,
    frame,
    logo: showLogo,
    ascent: measure.ascent,
  });
  return (
    <svg
      viewBox={`0 0 ${frame.width} ${frame.height}`}
      role="img"
      aria-label={t('settings.preview.introLabel', { question })}
      className={cn('block h-auto w-full', className)}
      data-testid="preview-intro"
      data-kind={frame.kind}
      data-font-size={layout.fontSize}
      data-shrunk={layout.shrunk ? 'true' : 'false'}
      data-truncated={layout.truncated ? 'true' : 'false'}
    >
      <rect width={frame.width} height={frame.height} fill={style.background} />
      {layout.lines.map((line, i) => (
        <text
          key={`${i}-${line.text}`}
          x={line.x}
          y={line.baseline}
          textAnchor="middle"
          fontFamily={cssFamily(font)}
          fontSize={layout.fontSize}
          fontWeight={layout.fontWeight}
          fill={style.question.color}
          style={{ fontSynthesis: 'none', fontKerning: 'normal' }}
          data-testid="preview-question-line"
          data-family={font.family}
          data-top={line.top}
        >
          {line.text}
        </text>
      ))}
      {showLogo && style.logoUrl && layout.logoBox ? (
        <PreviewLogo url={style.logoUrl} band={layout.logoBox} plate={Boolean(style.logoPlate)} />
      ) : null}
      {showZones ? <OverlayZones frame={frame} /> : null}
    </svg>
  );
}

/** A subtitle over a video as libass burns it in: the subtitle style, the outline and the soft shadow. */
export function SubtitleFrame({
  style,
  text,
  frame,
  showZones = false,
  className,
}: {
  style: TPreviewStyle;
  text: string;
  frame: PreviewFrame;
  showZones?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  const id = svgId(useId());
  return (
    <svg
      viewBox={`0 0 ${frame.width} ${frame.height}`}
      role="img"
      aria-label={t('settings.preview.subtitleLabel', { text })}
      className={cn('block h-auto w-full', className)}
      data-testid="preview-subtitle"
      data-kind={frame.kind}
      data-border={style.subtitle.border ? 'on' : 'off'}
    >
      <VideoBackdrop id={id} frame={frame} />
      {showZones ? <OverlayZones frame={frame} /> : null}
      <SubtitleText style={style} text={text} frame={frame} marked />
    </svg>
  );
}

/**
 * A subtitle's lines as libass draws them (the shared layout): the shadow under each line, the outline and
 * the company's colour. `marked` gives the lines the test ids and data of the subtitle frame.
 */
function SubtitleText({ style, text, frame, marked = false }: { style: TPreviewStyle; text: string; frame: PreviewFrame; marked?: boolean }) {
  const font = previewFont(style.subtitle.font);
  const weight = style.subtitle.bold ? 700 : 400;
  const measure = useMeasure(font, weight);
  const layout = layoutSubtitle({
    text,
    size: style.subtitle.size,
    bold: style.subtitle.bold,
    border: style.subtitle.border,
    font: style.subtitle.font,
    frame,
    measure: measure.width,
  });
  const textProps = {
    textAnchor: 'middle' as const,
    fontFamily: cssFamily(font),
    fontSize: layout.fontSize,
    fontWeight: layout.fontWeight,
    strokeLinejoin: 'round' as const,
    paintOrder: 'stroke',
  };
  const stroke = layout.outline > 0 ? { stroke: '#000000', strokeWidth: layout.outline * 2 } : {};
  return (
    <>
      {layout.lines.map((line, i) => (
        <g key={`${i}-${line.text}`}>
          <text
            x={line.x + layout.shadow}
            y={line.baseline + layout.shadow}
            fill="#000000"
            opacity={layout.shadowOpacity}
            aria-hidden="true"
            {...stroke}
            {...textProps}
          >
            {line.text}
          </text>
          <text
            x={line.x}
            y={line.baseline}
            fill={style.subtitle.color}
            {...(marked ? { 'data-testid': 'preview-subtitle-line', 'data-family': font.family, 'data-top': line.top } : { 'aria-hidden': true })}
            {...stroke}
            {...textProps}
          >
            {line.text}
          </text>
        </g>
      ))}
    </>
  );
}

interface PreviewPanelProps {
  style: TPreviewStyle;
  /** The question the card shows: the company's first, or a sample. */
  question: string;
  /** A long question, to see the card wrap and shrink. */
  longQuestion: string;
  subtitle: string;
  /** Issue 31: 'word' shows word-by-word captions in the subtitle frame. */
  captionStyle?: TCaptionStyle;
  /** The frame shown on narrow screens (both show side by side on wide ones). */
  active: TPreviewFrame;
  onActiveChange: (frame: TPreviewFrame) => void;
}

/**
 * A segmented control of radio buttons (arrow keys move between them, as in any radio group): five
 * formats in one row, even on a phone, each its name over its ratio.
 */
function FormatSwitch({ value, onChange }: { value: TPreviewFormat; onChange: (format: TPreviewFormat) => void }) {
  const { t } = useTranslation();
  const name = svgId(useId());
  return (
    <div
      role="radiogroup"
      aria-label={t('settings.preview.format.label')}
      className="grid grid-cols-5 rounded-control bg-gray-100 p-0.5"
      data-testid="preview-format"
    >
      {PREVIEW_FORMATS.map((format) => {
        const checked = value === format;
        const ratio = PREVIEW_RATIOS[format];
        return (
          <label
            key={format}
            className={cn(
              'flex h-10 min-w-0 cursor-pointer flex-col items-center justify-center rounded-[calc(var(--radius-control)-2px)] px-0.5 text-xs leading-4 whitespace-nowrap transition-colors select-none',
              'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-brand-600',
              checked ? 'bg-white text-gray-950 shadow-sm' : 'text-gray-600 hover:text-gray-900',
            )}
          >
            <input
              type="radio"
              name={name}
              value={format}
              checked={checked}
              onChange={() => onChange(format)}
              className="sr-only"
              data-testid={`preview-format-${format}`}
            />
            <span className="max-w-full truncate font-medium">{t(`settings.preview.format.${format}`)}</span>{' '}
            <span className={cn('max-w-full truncate tabular-nums', checked ? 'text-gray-500' : 'text-gray-400')}>
              {ratio ?? t('settings.preview.format.answerRatio')}
            </span>
          </label>
        );
      })}
    </div>
  );
}

function FrameCaption({ title, caption, testId }: { title: string; caption: string; testId?: string }) {
  return (
    <p className="mt-2 flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 text-xs">
      <span className="font-medium text-gray-900">{title}</span>
      <span className="text-gray-500" data-testid={testId}>
        {caption}
      </span>
    </p>
  );
}

/** What the card did to fit: the size it was reduced to, or that it was cut; null when it fits as chosen. */
function useFitNote(style: TPreviewStyle, question: string, frame: PreviewFrame): string | null {
  const { t } = useTranslation();
  const layout = layoutCard({
    text: question,
    size: style.question.size,
    bold: style.question.bold,
    font: style.question.font,
    frame,
    logo: style.showLogo && Boolean(style.logoUrl),
  });
  if (layout.truncated) return t('settings.preview.fit.truncated');
  if (layout.shrunk) return t('settings.preview.fit.shrunk', { size: settingsSize(layout.fontSize, frame), chosen: style.question.size });
  return null;
}

/**
 * How wide a frame is drawn on a narrow screen, by kind: wide frames take the column; a square, a 4:5
 * and a 9:16 frame are about as high as a wide one there (about 200 px), centred. On wide screens frames
 * at least as tall as wide stand two side by side, at the column's half.
 */
const PHONE_WIDTH: Record<PreviewFrame['kind'], string> = {
  answer: '',
  landscape: '',
  square: 'mx-auto w-48 lg:w-auto',
  portrait: 'mx-auto w-40 lg:w-auto',
  vertical: 'mx-auto w-28 lg:w-auto',
};

/**
 * The live preview: the intro card and a subtitle over a video, or the lower-third and the end card, in
 * the frame of the chosen format (the answer as recorded, LinkedIn 16:9, a 1:1 or 4:5 feed post,
 * Reels/TikTok/Shorts 9:16), each composed by the renderer's layout for that frame's kind. On narrow
 * screens one frame at a time (it follows the section being edited, or the switch above it).
 */
export function PreviewPanel({ style, question, longQuestion, subtitle, captionStyle, active, onActiveChange }: PreviewPanelProps) {
  const { t } = useTranslation();
  const [format, setFormat] = useState<TPreviewFormat>('answer');
  const [useLong, setUseLong] = useState(false);
  const [showZones, setShowZones] = useState(true);
  const frame = PREVIEW_FRAMES[format];
  const tall = frame.height >= frame.width;
  const hasZones = overlayZones(frame) !== null;
  const shownQuestion = useLong ? longQuestion : question;
  const fitNote = useFitNote(style, shownQuestion, frame);
  const frames: { value: TPreviewFrame; label: string }[] = [
    { value: 'intro', label: t('settings.preview.introShort') },
    { value: 'subtitle', label: t('settings.preview.subtitlesShort') },
    { value: 'lowerThird', label: t('settings.preview.lowerThirdShort') },
    { value: 'endCard', label: t('settings.preview.endCardShort') },
  ];
  // Wide screens show two frames side by side: the card and the subtitles, or the lower-third and the end card.
  const extras = active === 'lowerThird' || active === 'endCard';
  const shown = (value: TPreviewFrame) =>
    active === value ? 'block' : (value === 'lowerThird' || value === 'endCard') === extras ? 'hidden lg:block' : 'hidden';
  const zones = hasZones && showZones;
  const box = cn('overflow-hidden rounded-control bg-black ring-1 ring-gray-900/10', PHONE_WIDTH[frame.kind]);
  return (
    <section aria-labelledby="settings-preview-title" data-testid="settings-preview" data-format={format}>
      <div className="flex items-center justify-between gap-3">
        {/* On a phone the four-frame switch takes the row: the heading stays for screen readers. */}
        <div className="min-w-0 max-sm:sr-only">
          <h3 id="settings-preview-title" className="text-sm font-semibold whitespace-nowrap text-gray-900">
            {t('settings.preview.title')}
          </h3>
          <p className="hidden text-xs text-gray-500 lg:block">{t('settings.preview.description')}</p>
        </div>
        <div
          role="group"
          aria-label={t('settings.preview.frameLabel')}
          className="flex shrink-0 rounded-control bg-gray-100 p-0.5"
        >
          {frames.map((item) => (
            <button
              key={item.value}
              type="button"
              aria-pressed={active === item.value}
              onClick={() => onActiveChange(item.value)}
              className={cn(
                'h-7 rounded-[calc(var(--radius-control)-2px)] px-2 text-xs font-medium transition-colors',
                active === item.value ? 'bg-white text-gray-950 shadow-sm' : 'text-gray-600 hover:text-gray-900',
              )}
            >
              {item.label}
            </button>
          ))}
        </div>
      </div>
      <div className="mt-3">
        <FormatSwitch value={format} onChange={setFormat} />
        <p className="mt-1.5 hidden truncate text-xs text-gray-500 sm:block" data-testid="preview-format-hint">
          {t(`settings.preview.format.${format}Hint`)}
          {format === 'answer' ? null : (
            <span className="hidden tabular-nums sm:inline">
              {' · '}
              {t('settings.preview.format.size', { width: frame.width, height: frame.height })}
            </span>
          )}
        </p>
      </div>
      <div className={cn('mt-3 flex flex-col gap-4', tall && 'lg:grid lg:grid-cols-2')}>
        <figure className={cn('m-0 min-w-0', shown('intro'))}>
          <div className={box}>
            <IntroCardFrame style={style} question={shownQuestion} frame={frame} showZones={zones} />
          </div>
          <figcaption className="hidden lg:block">
            <FrameCaption
              title={t('settings.preview.intro')}
              caption={fitNote ?? t('settings.preview.introCaption')}
              testId="preview-fit-note"
            />
          </figcaption>
        </figure>
        <figure className={cn('m-0 min-w-0', shown('subtitle'))}>
          <div className={box}>
            {captionStyle === 'word' ? (
              <WordCaptionFrame style={style} text={subtitle} frame={frame} showZones={zones} />
            ) : (
              <SubtitleFrame style={style} text={subtitle} frame={frame} showZones={zones} />
            )}
          </div>
          <figcaption className="hidden lg:block">
            <FrameCaption title={t('settings.preview.subtitles')} caption={t('settings.preview.subtitlesCaption')} />
          </figcaption>
        </figure>
        <figure className={cn('m-0 min-w-0', shown('lowerThird'))}>
          <div className={box}>
            <LowerThirdFrame
              style={style}
              name={t('settings.preview.sampleName')}
              title={t('settings.preview.sampleTitle')}
              subtitle={subtitle}
              frame={frame}
              showZones={zones}
              captionStyle={captionStyle}
            />
          </div>
          <figcaption className="hidden lg:block">
            <FrameCaption title={t('settings.preview.lowerThird')} caption={style.lowerThird ? t('settings.preview.lowerThirdCaption') : t('settings.preview.endCardOffShort')} />
          </figcaption>
        </figure>
        <figure className={cn('m-0 min-w-0', shown('endCard'))}>
          <div className={box}>
            <EndCardFrame style={style} frame={frame} showZones={zones} />
          </div>
          <figcaption className="hidden lg:block">
            <FrameCaption title={t('settings.preview.endCard')} caption={style.endCard ? t('settings.preview.endCardCaption') : t('settings.preview.endCardOffShort')} />
          </figcaption>
        </figure>
      </div>
      {fitNote ? (
        <p className="mt-2 text-center text-xs text-gray-500 lg:hidden">
          {fitNote}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-x-5 gap-y-2">
        <Checkbox
          label={t('settings.preview.longQuestion')}
          checked={useLong}
          onChange={(event) => setUseLong(event.target.checked)}
          className={cn(active !== 'intro' && 'max-lg:hidden', extras && 'lg:hidden')}
          data-testid="preview-long-question"
        />
        {hasZones ? (
          <Checkbox
            label={t('settings.preview.zones')}
            checked={showZones}
            onChange={(event) => setShowZones(event.target.checked)}
            data-testid="preview-zones"
          />
        ) : null}
      </div>
    </section>
  );
}

/* ------------------------------------------------------------------ issue 31: lower-third and end card */

/** The lower-third over a video as the renderer draws it: the plate of the card's background, the name and the position. */
export function LowerThirdFrame({
  style,
  name,
  title,
  subtitle,
  frame,
  showZones = false,
  captionStyle = 'line',
}: {
  style: TPreviewStyle;
  name: string;
  title: string;
  subtitle: string;
  frame: PreviewFrame;
  showZones?: boolean;
  captionStyle?: TCaptionStyle | undefined;
}) {
  const { t } = useTranslation();
  const id = svgId(useId());
  const font = previewFont(style.question.font);
  // Word-by-word captions sit higher than line subtitles: the plate keeps above them, as in the video.
  const keepAbove = captionStyle === 'word' ? wordCaptionClearance({ ...frame, size: style.subtitle.size, border: style.subtitle.border }) : undefined;
  const layout = previewLowerThird({ frame, name, title, font: style.question.font, bold: style.question.bold, subtitleSize: style.subtitle.size, keepAbove });
  return (
    <svg
      viewBox={`0 0 ${frame.width} ${frame.height}`}
      role="img"
      aria-label={t('settings.preview.lowerThirdLabel', { name, title })}
      className="block h-auto w-full"
      data-testid="preview-lower-third"
      data-kind={frame.kind}
      data-on={style.lowerThird ? 'true' : 'false'}
    >
      <VideoBackdrop id={id} frame={frame} />
      {showZones ? <OverlayZones frame={frame} /> : null}
      {style.lowerThird ? (
        <g data-testid="preview-lower-third-plate">
          <rect {...layout.plate} fill={style.background} opacity={LOWER_THIRD_PLATE_OPACITY} />
          {layout.lines.map((line) => (
            <text
              key={line.text}
              x={line.x}
              y={line.baseline}
              fontFamily={cssFamily(font)}
              fontSize={line.fontSize}
              fontWeight={line.fontWeight}
              fill={style.question.color}
              style={{ fontSynthesis: 'none' }}
              data-testid="preview-lower-third-line"
              data-top={line.top}
            >
              {line.text}
            </text>
          ))}
        </g>
      ) : null}
      {captionStyle === 'line' ? <SubtitleText style={style} text={subtitle} frame={frame} /> : null}
    </svg>
  );
}

/** The end card as the renderer draws it: the background, the logo in its band, the call to action and the address. */
export function EndCardFrame({ style, frame, showZones = false }: { style: TPreviewStyle; frame: PreviewFrame; showZones?: boolean }) {
  const { t } = useTranslation();
  const font = previewFont(style.question.font);
  const showLogo = style.showLogo && Boolean(style.logoUrl);
  const card = style.endCard;
  const layout = card ? previewEndCard({ frame, text: card.text, address: card.address, font: style.question.font, bold: style.question.bold, size: style.question.size, logo: showLogo }) : null;
  return (
    <svg
      viewBox={`0 0 ${frame.width} ${frame.height}`}
      role="img"
      aria-label={card ? t('settings.preview.endCardLabel', { text: card.text, address: card.address }) : t('settings.preview.endCardOff')}
      className="block h-auto w-full"
      data-testid="preview-end-card"
      data-kind={frame.kind}
      data-on={card ? 'true' : 'false'}
    >
      <rect width={frame.width} height={frame.height} fill={card ? style.background : '#f3f4f6'} />
      {layout ? (
        <>
          {layout.lines.map((line) => (
            <text
              key={line.text}
              x={layout.textBox.x + layout.textBox.width / 2}
              y={line.baseline}
              textAnchor="middle"
              fontFamily={cssFamily(font)}
              fontSize={line.fontSize}
              fontWeight={line.fontWeight}
              fill={style.question.color}
              style={{ fontSynthesis: 'none' }}
              data-testid="preview-end-card-line"
              data-top={line.top}
            >
              {line.text}
            </text>
          ))}
          {showLogo && style.logoUrl && layout.logoBox ? <PreviewLogo url={style.logoUrl} band={layout.logoBox} plate={Boolean(style.logoPlate)} /> : null}
        </>
      ) : (
        <text x={frame.width / 2} y={frame.height / 2} textAnchor="middle" dominantBaseline="middle" fontSize={Math.min(frame.width, frame.height) * 0.05} fill="#6b7280">
          {t('settings.preview.endCardOff')}
        </text>
      )}
      {showZones ? <OverlayZones frame={frame} /> : null}
    </svg>
  );
}
/* Issue 31: word-by-word captions (word-caption-frame.tsx) draw over the same scene and zones. */
export { OverlayZones, VideoBackdrop };
