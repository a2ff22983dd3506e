import type { TLanguage } from '../../contract/constants.js';
import { html } from '../lib/html.js';

/**
 * The one e-mail layout: single column, 600 px, the company's logo and name at the top when given, one
 * clear button with the link also written out, and a plain-text part. Same look in both languages.
 */
export interface EmailContent {
  lang: TLanguage;
  brand: string;
  preheader?: string;
  heading: string;
  paragraphs: string[];
  button?: { label: string; url: string };
  /** Shown under the button: the link written out, so it works when buttons do not. */
  linkHint?: string;
  footer: string;
  /**
   * E-mails to a customer (issue 30): the visible unsubscribe link under the footer, beside the RFC 8058
   * headers the message carries (reminders/unsubscribe-link.ts).
   */
  unsubscribe?: { label: string; url: string };
  company?: { name: string; logoUrl?: string | null };
}

const BRAND_COLOR = '#6d28d9';

export function renderEmail(content: EmailContent): { html: string; text: string } {
  const header = content.company
    ? html`${content.company.logoUrl && html`<img src="${content.company.logoUrl}" alt="" height="40" style="display:block;max-height:40px;margin:0 auto 8px">`}<div style="font-size:16px;font-weight:600;color:#111827">${content.company.name}</div>`
    : html`<div style="font-size:18px;font-weight:700;color:${BRAND_COLOR}">${content.brand}</div>`;
  const button = content.button
    ? html`<table role="presentation" cellspacing="0" cellpadding="0" border="0" style="margin:28px auto"><tr><td style="border-radius:8px;background:${BRAND_COLOR}"><a href="${content.button.url}" style="display:inline-block;padding:12px 24px;font-size:16px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:8px">${content.button.label}</a></td></tr></table>
<p style="margin:0 0 8px;font-size:13px;color:#6b7280">${content.linkHint ?? ''}</p>
<p style="margin:0 0 16px;font-size:13px;word-break:break-all"><a href="${content.button.url}" style="color:${BRAND_COLOR}">${content.button.url}</a></p>`
    : null;
  const page = html`<!doctype html>
<html lang="${content.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${content.heading}</title></head>
<body style="margin:0;padding:0;background:#f4f4f7;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#111827">
${content.preheader && html`<div style="display:none;max-height:0;overflow:hidden">${content.preheader}</div>`}
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background:#f4f4f7"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="600" cellspacing="0" cellpadding="0" border="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:12px;border:1px solid #e5e7eb">
<tr><td align="center" style="padding:28px 32px 0">${header}</td></tr>
<tr><td style="padding:24px 32px 32px">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#111827">${content.heading}</h1>
${content.paragraphs.map((p, i) => html`${i ? '\n' : ''}<p style="margin:0 0 14px;font-size:16px;line-height:1.55;color:#374151">${p}</p>`)}
${button}
</td></tr></table>
<p style="max-width:600px;margin:16px auto 0;font-size:12px;line-height:1.5;color:#9ca3af">${content.footer}</p>
${content.unsubscribe && html`<p style="max-width:600px;margin:8px auto 0;font-size:12px;line-height:1.5;color:#6b7280"><a href="${content.unsubscribe.url}" style="color:#6b7280;text-decoration:underline" data-unsubscribe>${content.unsubscribe.label}</a></p>`}
</td></tr></table></body></html>`;

  const text = [
    content.company ? content.company.name : content.brand,
    '',
    content.heading,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(content.button ? [`${content.button.label}: ${content.button.url}`, ''] : []),
    '--',
    content.footer,
    ...(content.unsubscribe ? ['', `${content.unsubscribe.label}: ${content.unsubscribe.url}`] : []),
  ].join('\n');
  return { html: page.value, text };
}
