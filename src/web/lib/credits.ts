import { isCreditPlural } from '../../contract/constants.js';

/** Which form of the credit label to use (spec §9): singular at 1 or fewer, plural above. */
export type TCreditForm = 'singular' | 'plural';

export function creditForm(count: number): TCreditForm {
  return isCreditPlural(count) ? 'plural' : 'singular';
}
