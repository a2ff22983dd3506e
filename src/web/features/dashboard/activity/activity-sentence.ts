import type { TFunction } from 'i18next';
import type { TActivityEvent, TActivityEventType } from '../../../../contract/api/activity.schema.js';

/** The filter's groups of event types: what a person looks for, not the log's technical names. */
export const ACTIVITY_GROUPS = {
  requests: ['request.sent', 'testimonial.submitted', 'testimonial.paid', 'consent.withdrawn'],
  videos: ['render.ready', 'render.failed'],
  publishing: ['publication.published', 'publication.unpublished'],
  team: ['member.added', 'member.removed', 'member.role_changed'],
  apiKeys: ['api_key.created', 'api_key.revoked'],
} as const satisfies Record<string, readonly TActivityEventType[]>;
export type TActivityGroup = keyof typeof ACTIVITY_GROUPS;

export function isActivityGroup(value: string | null): value is TActivityGroup {
  return value !== null && Object.prototype.hasOwnProperty.call(ACTIVITY_GROUPS, value);
}

/** Who did it, as the sentence starts: a member's name, else "the system" (renders nobody asked for) or a customer/someone. */
const SYSTEM_TYPES: readonly TActivityEventType[] = ['render.ready', 'render.failed'];
const CUSTOMER_TYPES: readonly TActivityEventType[] = ['testimonial.submitted', 'consent.withdrawn'];

export type TActivityKind = 'person' | 'system' | 'customer';

export function kindOf(event: TActivityEvent): TActivityKind {
  // A render a member asked for is theirs (decision 223); the product's own (drafts) are the system's.
  if (SYSTEM_TYPES.includes(event.type)) return event.actor ? 'person' : 'system';
  if (CUSTOMER_TYPES.includes(event.type)) return 'customer';
  return 'person';
}

/**
 * One sentence per event in the reader's language: "Camille Durand published Marie’s testimonial",
 * "A customer withdrew consent", "System: video ready". A change made without a person (a payment on
 * arrival, a call with an API key) reads in the passive voice.
 */
export function activitySentence(event: TActivityEvent, t: TFunction): string {
  const { subject } = event;
  const role = (value: string | null) => (value ? t(`activity.roles.${value}`, { defaultValue: value }) : '');
  const values = {
    actor: event.actor?.name ?? t('activity.someone'),
    customer: subject.customerName ?? t('activity.someone'),
    member: subject.memberEmail ?? t('activity.someone'),
    key: subject.keyName ?? '',
    role: role(subject.role),
    previous: role(subject.previousRole),
  };
  const key = event.type.replace('.', '_');
  let variant = event.actor ? 'byPerson' : 'withoutPerson';
  if (event.type === 'request.sent' && subject.kind === 'link') variant = event.actor ? 'linkByPerson' : 'linkWithoutPerson';
  // Every type has byPerson and withoutPerson, request_sent also the link variants (en.json, fr.json;
  // the i18n key test checks both files): the key is built, so it is named for the typed t().
  return t(`activity.sentences.${key}.${variant}` as 'activity.sentences.request_sent.byPerson', values);
}
