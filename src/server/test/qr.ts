import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';

type TDecode = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
// jsqr is a CommonJS module whose types declare an ES default export: take the function either way.
const jsQR = ((jsQRModule as unknown as { default?: TDecode }).default ?? jsQRModule) as unknown as TDecode;

/** Reads a QR code in a PNG back to its text, as a phone's camera would (jsqr, a decoder independent of the encoder). */
export function decodeQrPng(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length), image.width, image.height)?.data ?? null;
}
