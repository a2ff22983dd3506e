import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../../lib/cn';
import { cssFamily, previewFont } from './preview-fonts';
import type { PreviewFont } from './preview-fonts';
import { layoutCard, layoutSubtitle, REFERENCE_HEIGHT, REFERENCE_WIDTH } from './preview-layout';
import type { MeasureAscent, MeasureText } from './preview-layout';
import type { TPreviewStyle } from './settings-form';

export type TPreviewFrame = 'intro' | 'subtitle';

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

/** The intro card as the renderer draws it: background, the question's lines, the logo on top. */
export function IntroCardFrame({
  style,
  question,
  className,
}: {
  style: TPreviewStyle;
  question: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const font = previewFont(style.question.font);
  const measure = useMeasure(font, style.question.bold && font.hasBold ? 700 : 400);
  const layout = layoutCard({
    text: question,
    size: style.question.size,
    bold: style.question.bold,
    font,
    ascent: measure.ascent,
  });
  const showLogo = style.showLogo && Boolean(style.logoUrl);
  return (
    <svg
      viewBox={`0 0 ${REFERENCE_WIDTH} ${REFERENCE_HEIGHT}`}
      role="img"
      aria-label={t('settings.preview.introLabel', { question })}
      className={cn('block h-auto w-full', className)}
      data-testid="preview-intro"
    >
      <rect width={REFERENCE_WIDTH} height={REFERENCE_HEIGHT} fill={style.background} />
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
        >
          {line.text}
        </text>
      ))}
      {showLogo && style.logoUrl ? (
        <image
          href={style.logoUrl}
          x={0}
          y={layout.logo.top}
          width={REFERENCE_WIDTH}
          height={layout.logo.height}
          preserveAspectRatio="xMidYMin meet"
          data-testid="preview-logo"
        />
      ) : null}
    </svg>
  );
}

/**
 * A defocused interview scene standing in for the customer's video: bright and dark areas, as in a real
 * one, so the outline's effect on legibility shows.
 */
function VideoBackdrop({ id }: { id: string }) {
  const ref = (name: string) => `url(#${id}-${name})`;
  return (
    <g aria-hidden="true">
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
      <rect width={REFERENCE_WIDTH} height={REFERENCE_HEIGHT} fill={ref('room')} />
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
        <rect x="0" y="430" width={REFERENCE_WIDTH} height="110" fill="#d9ccbb" opacity="0.6" />
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
      <rect width={REFERENCE_WIDTH} height={REFERENCE_HEIGHT} fill={ref('vignette')} />
    </g>
  );
}

/** A subtitle line over a video as libass burns it in: the subtitle style, the outline or the shadow. */
export function SubtitleFrame({ style, text, className }: { style: TPreviewStyle; text: string; className?: string }) {
  const { t } = useTranslation();
  const id = svgId(useId());
  const font = previewFont(style.subtitle.font);
  const weight = style.subtitle.bold ? 700 : 400;
  const measure = useMeasure(font, weight);
  const layout = layoutSubtitle({
    text,
    size: style.subtitle.size,
    bold: style.subtitle.bold,
    border: style.subtitle.border,
    font,
    measure: measure.width,
  });
  const textProps = {
    textAnchor: 'middle' as const,
    fontFamily: cssFamily(font),
    fontSize: layout.fontSize,
    fontWeight: layout.fontWeight,
  };
  return (
    <svg
      viewBox={`0 0 ${REFERENCE_WIDTH} ${REFERENCE_HEIGHT}`}
      role="img"
      aria-label={t('settings.preview.subtitleLabel', { text })}
      className={cn('block h-auto w-full', className)}
      data-testid="preview-subtitle"
      data-border={style.subtitle.border ? 'on' : 'off'}
    >
      <VideoBackdrop id={id} />
      {layout.lines.map((line, i) => (
        <g key={`${i}-${line.text}`}>
          {layout.shadow > 0 ? (
            <text x={line.x + layout.shadow} y={line.baseline + layout.shadow} fill="#000000" {...textProps}>
              {line.text}
            </text>
          ) : null}
          <text
            x={line.x}
            y={line.baseline}
            fill={style.subtitle.color}
            stroke={layout.outline > 0 ? '#000000' : undefined}
            strokeWidth={layout.outline > 0 ? layout.outline * 2 : undefined}
            strokeLinejoin="round"
            paintOrder="stroke"
            data-testid="preview-subtitle-line"
            data-family={font.family}
            {...textProps}
          >
            {line.text}
          </text>
        </g>
      ))}
    </svg>
  );
}

interface PreviewPanelProps {
  style: TPreviewStyle;
  question: string;
  subtitle: string;
  /** The frame shown on narrow screens (both show side by side on wide ones). */
  active: TPreviewFrame;
  onActiveChange: (frame: TPreviewFrame) => void;
}

function FrameCaption({ title, caption }: { title: string; caption: string }) {
  return (
    <p className="mt-2 flex items-baseline justify-between gap-3 text-xs">
      <span className="font-medium text-gray-900">{title}</span>
      <span className="text-gray-500">{caption}</span>
    </p>
  );
}

/**
 * The live preview: the intro card and a subtitle over a video, in 16:9 frames. On narrow screens one
 * frame at a time (it follows the section being edited, or the switch above it).
 */
export function PreviewPanel({ style, question, subtitle, active, onActiveChange }: PreviewPanelProps) {
  const { t } = useTranslation();
  const frames: { value: TPreviewFrame; label: string }[] = [
    { value: 'intro', label: t('settings.preview.introShort') },
    { value: 'subtitle', label: t('settings.preview.subtitlesShort') },
  ];
  return (
    <section aria-labelledby="settings-preview-title" data-testid="settings-preview">
      <div className="flex items-center justify-between gap-3">
        <div className="min-w-0">
          <h3 id="settings-preview-title" className="text-sm font-semibold whitespace-nowrap text-gray-900">
            {t('settings.preview.title')}
          </h3>
          <p className="hidden text-xs text-gray-500 lg:block">{t('settings.preview.description')}</p>
        </div>
        <div
          role="group"
          aria-label={t('settings.preview.title')}
          className="flex shrink-0 rounded-control bg-gray-100 p-0.5 lg:hidden"
        >
          {frames.map((frame) => (
            <button
              key={frame.value}
              type="button"
              aria-pressed={active === frame.value}
              onClick={() => onActiveChange(frame.value)}
              className={cn(
                'h-7 rounded-[calc(var(--radius-control)-2px)] px-2.5 text-xs font-medium transition-colors',
                active === frame.value ? 'bg-white text-gray-950 shadow-sm' : 'text-gray-600 hover:text-gray-900',
              )}
            >
              {frame.label}
            </button>
          ))}
        </div>
      </div>
      <div className="mt-3 flex flex-col gap-4">
        <figure className={cn('m-0', active === 'intro' ? 'block' : 'hidden lg:block')}>
          <div className="overflow-hidden rounded-control bg-black ring-1 ring-gray-900/10">
            <IntroCardFrame style={style} question={question} />
          </div>
          <figcaption className="hidden lg:block">
            <FrameCaption title={t('settings.preview.intro')} caption={t('settings.preview.introCaption')} />
          </figcaption>
        </figure>
        <figure className={cn('m-0', active === 'subtitle' ? 'block' : 'hidden lg:block')}>
          <div className="overflow-hidden rounded-control bg-black ring-1 ring-gray-900/10">
            <SubtitleFrame style={style} text={subtitle} />
          </div>
          <figcaption className="hidden lg:block">
            <FrameCaption title={t('settings.preview.subtitles')} caption={t('settings.preview.subtitlesCaption')} />
          </figcaption>
        </figure>
      </div>
    </section>
  );
}
