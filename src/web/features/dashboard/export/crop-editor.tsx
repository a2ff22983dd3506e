import { useCallback, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isSoftCrop, upscaleFactor } from '../../../../contract/crop.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { cn } from '../../../lib/cn';
import {
  initialArea,
  keyboardStep,
  maxAreaSize,
  minAreaSize,
  moveArea,
  previewSize,
  resizeBySteps,
  resizeFromCorner,
  setDimension,
  setPosition,
  type Corner,
  type PixelArea,
  type Size,
} from './crop-math';
import type { VideoFrame } from './video-frame';

export interface CropEditorProps {
  frame: VideoFrame;
  /** Width / height of the output. */
  ratio: number;
  output: Size;
  area: PixelArea;
  onAreaChange: (area: PixelArea) => void;
  disabled?: boolean;
  /** The proposed area that Reset returns to (the smart crop's, issue 31); centred and largest without. */
  initial?: PixelArea | undefined;
}

type Field = 'x' | 'y' | 'width' | 'height';

interface Drag {
  mode: 'move' | Corner;
  pointerId: number;
  start: PixelArea;
  startX: number;
  startY: number;
}

const CORNERS: { corner: Corner; className: string; cursor: string }[] = [
  { corner: 'nw', className: 'top-0 left-0 -translate-x-1/2 -translate-y-1/2', cursor: 'cursor-nwse-resize' },
  { corner: 'ne', className: 'top-0 right-0 translate-x-1/2 -translate-y-1/2', cursor: 'cursor-nesw-resize' },
  { corner: 'sw', className: 'bottom-0 left-0 -translate-x-1/2 translate-y-1/2', cursor: 'cursor-nesw-resize' },
  { corner: 'se', className: 'right-0 bottom-0 translate-x-1/2 translate-y-1/2', cursor: 'cursor-nwse-resize' },
];

/** The window's inner height, kept current. */
function useViewportHeight(): number {
  return useSyncExternalStore(
    (onChange) => {
      window.addEventListener('resize', onChange);
      return () => window.removeEventListener('resize', onChange);
    },
    () => window.innerHeight,
    () => 800,
  );
}

/** The content width of an element, kept current. */
function useContentWidth(): [(node: HTMLDivElement | null) => void, number] {
  const [width, setWidth] = useState(0);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((node: HTMLDivElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!node) return;
    setWidth(node.clientWidth);
    observer.current = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.current.observe(node);
  }, []);
  useEffect(() => () => observer.current?.disconnect(), []);
  return [ref, width];
}

/**
 * The crop step's editor (spec: company dashboard §2 export modal, §3 crop area): the frame with the
 * area on top, moved by dragging and resized from its corners with the ratio kept (pointer events:
 * mouse, pen and touch), or with the keyboard (arrows move, Shift + arrows resize); and the X, Y,
 * width and height fields in source pixels, kept in sync.
 */
export function CropEditor({ frame, ratio, output, area, onAreaChange, disabled = false, initial }: CropEditorProps) {
  const { t, i18n } = useTranslation();
  const source = frame.original;
  const instructionsId = useId();
  const [measure, roomWidth] = useContentWidth();
  const viewportHeight = useViewportHeight();
  const stageRef = useRef<HTMLDivElement | null>(null);
  const drag = useRef<Drag | null>(null);
  const [dragging, setDragging] = useState(false);
  const [draft, setDraft] = useState<{ field: Field; text: string } | null>(null);

  // The preview: never above 800 px a side (§9), within the room it has, and short enough for the
  // dialog's title, the format choice and the buttons to stay in sight (the fields sit beside it on
  // wide screens).
  const display = previewSize(source, {
    maxWidth: Math.max(1, roomWidth),
    maxHeight: Math.max(220, viewportHeight - 420),
  });
  const scale = display.width / source.width;

  const showCanvas = useCallback(
    (node: HTMLDivElement | null) => {
      if (node) node.replaceChildren(frame.canvas);
    },
    [frame],
  );

  /** Pointer down on the area (data-drag="move") or on a corner handle (data-drag="nw" …). */
  const beginDrag = (event: PointerEvent<HTMLDivElement>) => {
    const mode = event.currentTarget.dataset.drag as Drag['mode'] | undefined;
    if (!mode || disabled || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture(event.pointerId);
    if (mode === 'move') event.currentTarget.focus();
    drag.current = { mode, pointerId: event.pointerId, start: area, startX: event.clientX, startY: event.clientY };
    setDragging(true);
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId || scale <= 0) return;
    event.preventDefault();
    if (current.mode === 'move') {
      onAreaChange(moveArea(current.start, (event.clientX - current.startX) / scale, (event.clientY - current.startY) / scale, source));
      return;
    }
    const rect = stageRef.current?.getBoundingClientRect();
    if (!rect) return;
    const pointer = { x: (event.clientX - rect.left) / scale, y: (event.clientY - rect.top) / scale };
    onAreaChange(resizeFromCorner(current.start, current.mode, pointer, ratio, source));
  };

  const endDrag = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current?.pointerId !== event.pointerId) return;
    drag.current = null;
    setDragging(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (disabled) return;
    const step = keyboardStep(source);
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    if (event.shiftKey) {
      const grow = event.key === 'ArrowRight' || event.key === 'ArrowUp';
      onAreaChange(resizeBySteps(area, grow ? 1 : -1, ratio, source));
    } else {
      onAreaChange(moveArea(area, move[0], move[1], source));
    }
  };

  const maxSize = maxAreaSize(source, ratio);
  const minSize = minAreaSize(source, ratio);
  const fields: { field: Field; label: string; min: number; max: number }[] = [
    { field: 'x', label: t('exportVideo.crop.x'), min: 0, max: source.width - area.width },
    { field: 'y', label: t('exportVideo.crop.y'), min: 0, max: source.height - area.height },
    { field: 'width', label: t('exportVideo.crop.width'), min: minSize.width, max: maxSize.width },
    { field: 'height', label: t('exportVideo.crop.height'), min: minSize.height, max: maxSize.height },
  ];

  const applyField = (field: Field, text: string) => {
    setDraft({ field, text });
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value)) return;
    onAreaChange(
      field === 'x' || field === 'y' ? setPosition(area, { [field]: value }, source) : setDimension(area, field, value, ratio, source),
    );
  };

  const number = new Intl.NumberFormat(i18n.resolvedLanguage === 'fr' ? 'fr-FR' : 'en-GB');
  const centred = initial ?? initialArea(source, ratio);
  const isCentredMax = centred.x === area.x && centred.y === area.y && centred.width === area.width && centred.height === area.height;
  // Enlarged more than twice to fill the output, the picture looks soft (decision 169): say so, and
  // whether a larger area would help or the recording itself is too small for this format.
  const soft = isSoftCrop(area, output);
  const largest = area.width >= maxSize.width && area.height >= maxSize.height;
  const softValues = {
    width: area.width,
    output: `${output.width} × ${output.height}`,
    factor: new Intl.NumberFormat(i18n.resolvedLanguage === 'fr' ? 'fr-FR' : 'en-GB', { maximumFractionDigits: 1 }).format(upscaleFactor(area, output)),
  };

  return (
    <div className="flex flex-col gap-3">
      <p id={instructionsId} className="text-sm text-gray-600">
        {t('exportVideo.crop.instructions')} <span className="max-sm:sr-only">{t('exportVideo.crop.keyboard')}</span>
      </p>
      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_13rem] lg:gap-6">
        <div ref={measure} className="w-full min-w-0">
          <div className="flex justify-center overflow-hidden rounded-card bg-gray-950">
            <div
              ref={stageRef}
              className={cn('relative touch-none overflow-hidden select-none', disabled && 'opacity-60')}
              style={{ width: display.width, height: display.height }}
              onPointerMove={onPointerMove}
              onPointerUp={endDrag}
              onPointerCancel={endDrag}
              data-testid="crop-stage"
            >
              <div
                ref={showCanvas}
                role="img"
                aria-label={t('exportVideo.crop.previewLabel', { time: number.format(Math.round(frame.time * 10) / 10) })}
                className="absolute inset-0"
              />
              <div
                role="group"
                tabIndex={disabled ? -1 : 0}
                aria-roledescription={t('exportVideo.crop.legend')}
                aria-label={t('exportVideo.crop.area', {
                  width: area.width,
                  height: area.height,
                  x: area.x,
                  y: area.y,
                })}
                aria-describedby={instructionsId}
                aria-disabled={disabled || undefined}
                className={cn(
                  'absolute border-2 border-white outline-none focus-visible:border-brand-300 focus-visible:ring-4 focus-visible:ring-brand-500/60',
                  'shadow-[0_0_0_9999px_rgba(2,6,23,0.7)]',
                  dragging ? 'cursor-grabbing' : 'cursor-grab',
                )}
                style={{
                  left: area.x * scale,
                  top: area.y * scale,
                  width: area.width * scale,
                  height: area.height * scale,
                }}
                onPointerDown={beginDrag}
                onKeyDown={onKeyDown}
                data-drag="move"
                data-testid="crop-area"
              >
                <div aria-hidden="true" className="pointer-events-none absolute inset-0">
                  <div className="absolute inset-y-0 left-1/3 w-px bg-white/45" />
                  <div className="absolute inset-y-0 left-2/3 w-px bg-white/45" />
                  <div className="absolute inset-x-0 top-1/3 h-px bg-white/45" />
                  <div className="absolute inset-x-0 top-2/3 h-px bg-white/45" />
                </div>
                {CORNERS.map(({ corner, className, cursor }) => (
                  <div
                    key={corner}
                    aria-hidden="true"
                    title={t('exportVideo.crop.handle')}
                    className={cn('absolute z-10 flex size-8 items-center justify-center', className, cursor)}
                    onPointerDown={beginDrag}
                    data-drag={corner}
                    data-testid={`crop-handle-${corner}`}
                  >
                    <span className="size-3.5 rounded-[3px] border-2 border-brand-600 bg-white shadow-sm" />
                  </div>
                ))}
              </div>
            </div>
          </div>
        </div>

        <fieldset disabled={disabled} className="min-w-0">
          <legend className="mb-3 text-sm font-medium text-gray-900">{t('exportVideo.crop.legend')}</legend>
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-2">
            {fields.map(({ field, label, min, max }) => (
              <TextField
                key={field}
                label={label}
                type="number"
                inputMode="numeric"
                step={2}
                min={min}
                max={max}
                title={t('exportVideo.crop.unit')}
                className="tabular-nums"
                value={draft?.field === field ? draft.text : String(area[field])}
                onChange={(event) => applyField(field, event.target.value)}
                onBlur={() => setDraft(null)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') setDraft(null);
                }}
                data-testid={`crop-${field}`}
              />
            ))}
          </div>
          <div className="mt-3 flex flex-wrap items-center justify-between gap-2 lg:flex-col lg:items-start">
            <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-gray-600 tabular-nums lg:flex-col" data-testid="crop-sizes">
              <span>{t('exportVideo.crop.source', { width: source.width, height: source.height })}</span>
              <span className="font-medium text-gray-900" data-testid="crop-output">
                {t('exportVideo.crop.output', { width: output.width, height: output.height })}
              </span>
            </p>
            <Button
              variant="ghost"
              size="sm"
              className="lg:-ml-3"
              onClick={() => onAreaChange(centred)}
              disabled={disabled || isCentredMax}
              data-testid="crop-reset"
            >
              {t(initial ? 'exportVideo.crop.resetProposed' : 'exportVideo.crop.reset')}
            </Button>
          </div>
        </fieldset>
      </div>
      {soft && (
        <Alert tone="warning" title={t('exportVideo.crop.softTitle')} data-testid="crop-soft">
          {t(largest ? 'exportVideo.crop.softMax' : 'exportVideo.crop.soft', softValues)}
        </Alert>
      )}
    </div>
  );
}
