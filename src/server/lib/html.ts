/**
 * The one way the server writes HTML (issue 28, decision 180): the public pages (share page, embed, wall,
 * missing pages), the e-mails and the few pages of test and development tools. A tagged template,
 * `` html`<p>${text}</p>` ``, escapes every value put into it, in text and in attributes alike (& < > " '),
 * unless the value is already HTML of ours: the result of another `html` template, or a trusted constant
 * marked with `raw(…)` (a style sheet, an inline script, the JSON of a script element). An array puts its
 * items one after another; `null`, `undefined` and `false` put nothing, so `${cond && html`…`}` reads
 * naturally. What goes into a `<style>` or a `<script>` is not escaped by HTML rules: it must be `raw`.
 */

/** HTML that is safe to send as it is. `String(fragment)` or `fragment.value` gives its text. */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The text as HTML: & < > " and ' written as entities, safe in text and in a quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A trusted constant of ours (never user input) put into a template as it is. */
export function raw(value: string): SafeHtml {
  return new SafeHtml(value);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** The tagged template: every interpolated value escaped unless it is SafeHtml; arrays joined. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i += 1) out += render(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}
