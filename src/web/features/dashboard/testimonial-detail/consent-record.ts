/**
 * The consent record as the detail screen and its printable page show it (issue 29): the events in
 * order, and the JSON download. Pure functions, and the download through the authenticated client.
 */
import type { TFunction } from 'i18next';
import type { TConsentEvent, TConsentRecord } from '../../../../contract/api/consent.schema.js';
import { getConsentRecord } from '../api/get-consent-record';

/**
 * Every moment of the record, oldest first. The consent given and its withdrawal live on the consent
 * itself; the server lists them among the events too, and when it does not, they are added from it.
 */
export function recordEvents(record: TConsentRecord): TConsentEvent[] {
  const events = [...record.events];
  const base = { responseId: null, question: null, approvalId: null, comment: null } as const;
  const { consent } = record;
  if (consent && !events.some((event) => event.kind === 'given')) {
    events.push({ ...base, kind: 'given', at: consent.acceptedAt, ip: consent.ip, userAgent: consent.userAgent });
  }
  if (consent?.withdrawnAt && !events.some((event) => event.kind === 'withdrawn')) {
    events.push({ ...base, kind: 'withdrawn', at: consent.withdrawnAt, ip: consent.withdrawnIp, userAgent: null });
  }
  return events.sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime());
}

/** The details of an event in words: the answer concerned, the customer's comment, where from. */
export function eventDetails(t: TFunction, event: TConsentEvent): string[] {
  const details: string[] = [];
  if (event.question) details.push(t('testimonialDetail.record.question', { question: event.question }));
  if (event.comment) details.push(t('testimonialDetail.record.comment', { comment: event.comment }));
  if (event.ip) details.push(t('testimonialDetail.record.from', { ip: event.ip }));
  return details;
}

/** The JSON file's name: the customer and the day it was generated, e.g. `claire-dubois-consent-record-2025-03-10.json`. */
export function recordFileName(customerName: string, generatedAt: string): string {
  const slug =
    customerName
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'testimonial';
  const day = /^\d{4}-\d{2}-\d{2}/.exec(generatedAt)?.[0];
  return `${slug}-consent-record${day ? `-${day}` : ''}.json`;
}

/**
 * Reads the record afresh through the authenticated client (GET /api/testimonials/{id}/consent-record)
 * and saves it as a JSON file, as the server gave it within the contract.
 */
export async function downloadConsentRecord(testimonialId: string): Promise<TConsentRecord> {
  const record = await getConsentRecord(testimonialId);
  const blob = new Blob([`${JSON.stringify(record, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = recordFileName(record.testimonial.customer_name, record.generatedAt);
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Let the browser start the download before the address goes.
    window.setTimeout(() => URL.revokeObjectURL(url), 1_000);
  }
  return record;
}
