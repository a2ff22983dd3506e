import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fontChoice } from '../../../../contract/constants.js';
import { wordCaptionBox, wordHighlight, wordPages } from '../../../../contract/word-captions.js';
import { cn } from '../../../lib/cn';
import { cssFamily, previewFont } from './preview-fonts';
import type { PreviewFrame } from './preview-layout';
import type { TPreviewStyle } from './settings-form';
import { OverlayZones, VideoBackdrop } from './video-preview';

/** How long each word stays lit in the preview's cycle. */
export const PREVIEW_WORD_MS = 450;

/**
 * Word-by-word captions over a video, as the renderer draws them (issue 31): the first page of the
 * sample (two lines at most, broken by the contract's wordPages), large and centred in the safe area,
 * the spoken word lit in the highlight colour, cycling through the words (still when the person asked
 * for reduced motion).
 */
export function WordCaptionFrame({ style, text, frame, showZones = false, className }: { style: TPreviewStyle; text: string; frame: PreviewFrame; showZones?: boolean; className?: string }) {
  const { t } = useTranslation();
  const id = `w${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const face = { font: fontChoice(style.subtitle.font), bold: style.subtitle.bold };
  const options = { ...frame, size: style.subtitle.size, border: style.subtitle.border };
  const box = wordCaptionBox(options);
  const page = wordPages([{ start: 0, end: 1, text }], { ...options, face })[0];
  const words = page?.words ?? [];
  const highlight = wordHighlight({ text: style.subtitle.color, background: style.background, cardText: style.question.color });
  const font = previewFont(style.subtitle.font);
  const [lit, setLit] = useState(0);
  useEffect(() => {
    if (words.length < 2) return;
    if (typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    const timer = window.setInterval(() => setLit((i) => (i + 1) % words.length), PREVIEW_WORD_MS);
    return () => window.clearInterval(timer);
  }, [words.length]);
  // libass makes the font's Windows ascent + descent equal the size: a line is that tall, its baseline the ascent down (layoutSubtitle's rule).
  const lineHeight = box.fontSize;
  const fontSize = (lineHeight * font.unitsPerEm) / (font.winAscent + font.winDescent);
  const ascent = (fontSize * font.winAscent) / font.unitsPerEm;
  const lines = page?.lines ?? [];
  const top = box.centreY - (lines.length * lineHeight) / 2;
  const x = Math.round((box.marginL + frame.width - box.marginR) / 2);
  const textProps = {
    textAnchor: 'middle' as const,
    fontFamily: cssFamily(font),
    fontSize,
    fontWeight: style.subtitle.bold ? 700 : 400,
    strokeLinejoin: 'round' as const,
    paintOrder: 'stroke',
    stroke: '#000000',
    strokeWidth: box.outline * 2,
  };
  const firsts = lines.map((_, row) => lines.slice(0, row).reduce((n, c) => n + c, 0));
  return (
    <svg
      viewBox={`0 0 ${frame.width} ${frame.height}`}
      role="img"
      aria-label={t('settings.preview.wordCaptionLabel', { text })}
      className={cn('block h-auto w-full', className)}
      data-testid="preview-word-captions"
      data-kind={frame.kind}
      data-highlight={highlight}
    >
      <VideoBackdrop id={id} frame={frame} />
      {showZones ? <OverlayZones frame={frame} /> : null}
      {lines.map((count, row) => {
        const first = firsts[row]!;
        const lineWords = words.slice(first, first + count);
        return (
          <text key={row} x={x} y={top + row * lineHeight + ascent} {...textProps} data-testid="preview-word-line">
            {lineWords.map((w, k) => (
              <tspan key={k} fill={first + k === lit ? highlight : style.subtitle.color} data-lit={first + k === lit ? 'true' : undefined}>
                {k ? ` ${w.text}` : w.text}
              </tspan>
            ))}
          </text>
        );
      })}
    </svg>
  );
}
