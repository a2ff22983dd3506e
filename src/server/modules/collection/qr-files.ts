import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { isNormalisedLogoKey } from '../settings/logo.job.js';
import { ownedLinkWithCompany } from './collection.service.js';
import { qrPng, qrSvg, type QrLogo } from './qr-code.js';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** The company's logo for the centre of its codes: only the normalised copy (a PNG our worker wrote); none while it is being made. */
async function logoOf(ctx: AppContext, company: { logoKey: string | null }): Promise<QrLogo | null> {
  if (!company.logoKey || !isNormalisedLogoKey(company.logoKey)) return null;
  try {
    return { png: await bytesOf(await ctx.storage.get(company.logoKey)) };
  } catch {
    // The logo was replaced or removed meanwhile: the code without it still works.
    return null;
  }
}

/**
 * The codes made, by address, logo and format: a link's code changes only with its address or the
 * company's logo, and a PNG with a logo takes a few tens of milliseconds to draw (decision 192).
 */
const made = new Map<string, Buffer>();
const MADE_MAX = 200;

export async function qrFile(ctx: AppContext, companyId: string, linkId: string, format: 'svg' | 'png') {
  const { link, company, url } = await ownedLinkWithCompany(ctx, companyId, linkId);
  const key = `${url}\n${company.logoKey ?? ''}\n${format}`;
  let body = made.get(key);
  if (!body) {
    const logo = await logoOf(ctx, company);
    body = format === 'svg' ? Buffer.from(await qrSvg(url, logo), 'utf8') : await qrPng(url, logo);
    if (made.size >= MADE_MAX) made.delete(made.keys().next().value!);
    made.set(key, body);
  }
  return {
    body,
    contentType: format === 'svg' ? 'image/svg+xml' : 'image/png',
    filename: `qr-${link.slug}.${format}`,
  };
}
