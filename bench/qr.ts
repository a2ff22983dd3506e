/**
 * QR codes of collection links (issue 30, decision 192): a PNG with the company's logo in its centre
 * against the same PNG without one (the bare baseline, measured in the same run), and the SVGs.
 */
import { PNG } from 'pngjs';
import { qrPng, qrSvg } from '../src/server/modules/collection/qr-code.js';

const RUNS = 10;
const round = (n: number) => Math.round(n * 100) / 100;

async function meanMs(fn: (i: number) => Promise<unknown>): Promise<number> {
  await fn(-1); // warm-up
  const started = performance.now();
  for (let i = 0; i < RUNS; i++) await fn(i);
  return (performance.now() - started) / RUNS;
}

export async function qrBench(): Promise<Record<string, unknown>> {
  // A 1024×512 logo, the largest a normalised logo is.
  const image = new PNG({ width: 1024, height: 512 });
  image.data.fill(200);
  const logo = { png: PNG.sync.write(image) };
  const url = 'https://app.vouchreel.test/c/acme-event';
  const bare = await meanMs((i) => qrPng(`${url}?${i}`, null));
  const withLogo = await meanMs((i) => qrPng(`${url}?${i}`, logo));
  const svg = await meanMs((i) => qrSvg(`${url}?${i}`, logo));
  return {
    qr_png_ms: round(bare),
    qr_png_logo_ms: round(withLogo),
    qr_png_logo_ratio: round(withLogo / bare),
    qr_svg_logo_ms: round(svg),
  };
}
