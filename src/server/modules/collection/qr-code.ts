import { PNG } from 'pngjs';
import QRCode from 'qrcode';

/**
 * A collection link's QR code (decision 192): encoded by the maintained `qrcode` library, drawn as SVG
 * or PNG, with the company's logo on a white plate in the centre when it has one. With a logo the code
 * uses error correction H (30 % of the modules may be lost), and the plate covers at most about 5 % of
 * the symbol, so phones read it as easily as without. The logo is the company's normalised copy (a PNG
 * our worker wrote with ffmpeg, at most 1024 px a side): pngjs reads it here; no other picture is decoded.
 */

/** The plate's side as a share of the symbol's side (the modules only, without the quiet zone). */
const PLATE_SHARE = 0.22;
const QUIET_ZONE = 4;
/** The PNG's side in pixels: sharp enough for print at 8 cm. */
export const QR_PNG_SIDE = 1024;

export interface QrLogo {
  /** The logo as PNG bytes. */
  png: Buffer;
}

const correction = (logo: QrLogo | null) => (logo ? 'H' : 'M');

/** The symbol's modules with the quiet zone: the side in modules. */
function symbolSide(url: string, logo: QrLogo | null): number {
  return QRCode.create(url, { errorCorrectionLevel: correction(logo) }).modules.size + QUIET_ZONE * 2;
}

/** The plate's square in the coordinates of a side of `side` units (centre, whole units). */
function plateBox(side: number): { x: number; size: number } {
  const modules = side - QUIET_ZONE * 2;
  const size = Math.round(modules * PLATE_SHARE);
  return { x: Math.round((side - size) / 2), size };
}

/** The QR code as SVG text, with the logo embedded (data URL) in the centre when given. */
export async function qrSvg(url: string, logo: QrLogo | null): Promise<string> {
  const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: correction(logo), margin: QUIET_ZONE, color: { dark: '#000000', light: '#ffffff' } });
  if (!logo) return svg;
  const side = symbolSide(url, logo);
  const plate = plateBox(side);
  const inset = plate.size * 0.1;
  const image = `<rect x="${plate.x}" y="${plate.x}" width="${plate.size}" height="${plate.size}" rx="${(plate.size * 0.12).toFixed(2)}" fill="#ffffff"/><image x="${(plate.x + inset).toFixed(2)}" y="${(plate.x + inset).toFixed(2)}" width="${(plate.size - 2 * inset).toFixed(2)}" height="${(plate.size - 2 * inset).toFixed(2)}" preserveAspectRatio="xMidYMid meet" href="data:image/png;base64,${logo.png.toString('base64')}"/>`;
  return svg.replace(/<\/svg>\s*$/, `${image}</svg>\n`);
}

/**
 * The QR code as a PNG of about QR_PNG_SIDE pixels, the logo drawn on its plate in the centre when given:
 * the library's modules drawn straight into one bitmap, encoded once.
 */
export async function qrPng(url: string, logo: QrLogo | null): Promise<Buffer> {
  const { modules } = QRCode.create(url, { errorCorrectionLevel: correction(logo) });
  const side = modules.size + QUIET_ZONE * 2;
  // Whole pixels per module: crisp edges for every reader.
  const scale = Math.max(1, Math.floor(QR_PNG_SIDE / side));
  const canvas = new PNG({ width: side * scale, height: side * scale });
  canvas.data.fill(255);
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      const x0 = (col + QUIET_ZONE) * scale;
      const y0 = (row + QUIET_ZONE) * scale;
      for (let y = y0; y < y0 + scale; y++) canvas.data.fill(0, (y * canvas.width + x0) * 4, (y * canvas.width + x0 + scale) * 4);
    }
  }
  // The fill above blackened the alpha channel too: every pixel is opaque.
  for (let i = 3; i < canvas.data.length; i += 4) canvas.data[i] = 255;
  if (logo) {
    const plate = plateBox(side);
    const px = plate.x * scale;
    const size = plate.size * scale;
    fill(canvas, px, px, size, size);
    const inset = Math.round(size * 0.1);
    drawContained(canvas, PNG.sync.read(logo.png), px + inset, px + inset, size - 2 * inset);
  }
  return PNG.sync.write(canvas, { colorType: logo ? 2 : 0, inputHasAlpha: true, deflateLevel: 6 });
}

/** A white square. */
function fill(png: PNG, x0: number, y0: number, w: number, h: number): void {
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) {
      const i = (y * png.width + x) * 4;
      png.data[i] = 255;
      png.data[i + 1] = 255;
      png.data[i + 2] = 255;
      png.data[i + 3] = 255;
    }
  }
}

/**
 * Draws `src` scaled to fit a `box`-pixel square at (x0, y0), centred, averaging the source pixels under
 * each target pixel (a box filter: a logo made smaller stays smooth) and blending its alpha over white.
 */
function drawContained(dst: PNG, src: PNG, x0: number, y0: number, box: number): void {
  const ratio = Math.min(box / src.width, box / src.height);
  const w = Math.max(1, Math.round(src.width * ratio));
  const h = Math.max(1, Math.round(src.height * ratio));
  const ox = x0 + Math.floor((box - w) / 2);
  const oy = y0 + Math.floor((box - h) / 2);
  for (let ty = 0; ty < h; ty++) {
    const sy0 = Math.floor(ty / ratio);
    const sy1 = Math.min(src.height, Math.max(sy0 + 1, Math.floor((ty + 1) / ratio)));
    for (let tx = 0; tx < w; tx++) {
      const sx0 = Math.floor(tx / ratio);
      const sx1 = Math.min(src.width, Math.max(sx0 + 1, Math.floor((tx + 1) / ratio)));
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      let n = 0;
      for (let sy = sy0; sy < sy1; sy++) {
        for (let sx = sx0; sx < sx1; sx++) {
          const i = (sy * src.width + sx) * 4;
          const alpha = src.data[i + 3]! / 255;
          r += src.data[i]! * alpha;
          g += src.data[i + 1]! * alpha;
          b += src.data[i + 2]! * alpha;
          a += alpha;
          n++;
        }
      }
      const coverage = a / n;
      const j = ((oy + ty) * dst.width + ox + tx) * 4;
      // Premultiplied average over white.
      dst.data[j] = Math.round((a ? r / a : 255) * coverage + 255 * (1 - coverage));
      dst.data[j + 1] = Math.round((a ? g / a : 255) * coverage + 255 * (1 - coverage));
      dst.data[j + 2] = Math.round((a ? b / a : 255) * coverage + 255 * (1 - coverage));
      dst.data[j + 3] = 255;
    }
  }
}
