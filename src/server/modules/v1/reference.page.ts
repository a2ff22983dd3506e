import { html, raw, type SafeHtml } from '../../lib/html.js';
import { PAGE_FONT } from '../publications/publications.pages.js';

/**
 * The API reference page (issue 32, decision 214), written by the server from the OpenAPI document
 * itself: no script, no CDN, inline CSS in the house colours. Each operation has its heading, its scope,
 * its parameters, its body, a curl example and its answers with their schemas. English only, as API
 * documentation is.
 */

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema: Json;
}
interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: Parameter[];
  requestBody?: { content: { 'application/json': { schema: Json; example?: unknown } } };
  responses: Record<string, Json>;
  'x-scope': string;
}

const METHOD_ORDER = ['get', 'post', 'put', 'delete'];

/** A short type label of a JSON schema: string (uuid), integer, array of object, string | null… */
function typeLabel(schema: Json): string {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).map(typeLabel).join(' | ');
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [String(schema.type)] : ['any'];
  return types
    .map((type) => {
      if (type === 'array' && schema.items) return `array of ${typeLabel(schema.items as Json)}`;
      if (type === 'string' && typeof schema.format === 'string') return `string (${schema.format})`;
      return type;
    })
    .join(' | ');
}

/** The limits of a field that a caller should know: bounds, lengths, default. */
function constraints(schema: Json): string[] {
  const out: string[] = [];
  const pairs: [string, string][] = [
    ['minimum', '≥'],
    ['maximum', '≤'],
    ['minLength', 'min. length'],
    ['maxLength', 'max. length'],
    ['minItems', 'min. items'],
  ];
  for (const [key, label] of pairs) if (typeof schema[key] === 'number') out.push(`${label} ${schema[key] as number}`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}

/** The object schema to describe field by field, looking through `anyOf: [object, null]`. */
function objectOf(schema: Json): Json | null {
  if (schema.type === 'object' && schema.properties) return schema;
  if (Array.isArray(schema.anyOf)) for (const s of schema.anyOf as Json[]) if (s.type === 'object' && s.properties) return s;
  if (schema.type === 'array' && schema.items) return objectOf(schema.items as Json);
  return null;
}

/** A schema's fields as nested lists: name, type, required, limits, description; nested objects below their field. */
function fields(schema: Json, depth = 0): SafeHtml | null {
  const object = objectOf(schema);
  if (!object || depth > 4) return null;
  const required = new Set((object.required as string[] | undefined) ?? []);
  return html`<ul class="fields">${Object.entries(object.properties as Record<string, Json>).map(
    ([name, property]) => html`<li><code class="name">${name}</code> <span class="type">${typeLabel(property)}</span>${
      required.has(name) ? html` <span class="req">required</span>` : null
    }${constraints(property).length ? html` <span class="limits">${constraints(property).join(', ')}</span>` : null}${
      typeof property.description === 'string' ? html`<p>${property.description}</p>` : null
    }${fields(property, depth + 1)}</li>`,
  )}</ul>`;
}

/** The document's prose: `code` spans become <code>, the rest is escaped. */
function prose(text: string): SafeHtml {
  return html`${text.split('\n\n').map((paragraph) => html`<p>${paragraph.split(/`([^`]+)`/).map((part, i) => (i % 2 ? html`<code>${part}</code>` : part))}</p>`)}`;
}

function curlOf(method: string, serverUrl: string, path: string, op: Operation): string {
  const url = `${serverUrl}${path.replace(/\{(\w+)\}/g, (_m, name: string) => `<${name}>`)}`;
  const lines = [`curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} '${url}'`, `  -H 'Authorization: Bearer vr_live_…'`];
  const example = op.requestBody?.content['application/json'].example;
  if (example !== undefined) lines.push(`  -H 'Content-Type: application/json'`, `  -d '${JSON.stringify(example)}'`);
  return lines.join(' \\\n');
}

const STYLE = `*{box-sizing:border-box}html{scroll-padding-top:16px}body{margin:0;font-family:${PAGE_FONT};background:#f6f6f8;color:#16181d;line-height:1.55;font-size:15px}
a{color:#6d28d9}a:focus-visible,summary:focus-visible{outline:2px solid #7c3aed;outline-offset:2px}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
p code,li p code,.intro code{background:#ede9fe;color:#4c1d95;padding:1px 5px;border-radius:4px}
.top{background:#fff;border-bottom:1px solid #e4e4e9;padding:14px 20px;display:flex;align-items:center;gap:10px;flex-wrap:wrap}
.brand{font-weight:700;font-size:17px;color:#16181d;text-decoration:none}.badge{font-size:12px;font-weight:600;color:#5b21b6;background:#ede9fe;border-radius:999px;padding:2px 10px}
.top .json{margin-left:auto;font-size:14px}
.layout{max-width:1180px;margin:0 auto;padding:0 20px;display:grid;grid-template-columns:1fr;gap:24px}
nav.toc{padding-top:20px}nav.toc h2{font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:#5b6170;margin:16px 0 6px}
nav.toc ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:6px}nav.toc a{display:flex;gap:8px;align-items:center;text-decoration:none;color:#16181d;padding:4px 8px;border-radius:6px;background:#fff;border:1px solid #e4e4e9;font-size:14px}
nav.toc a:hover{background:#f5f3ff}
main{min-width:0;padding:20px 0 48px}h1{font-size:clamp(24px,4vw,32px);line-height:1.2;margin:0 0 8px}
.intro{background:#fff;border:1px solid #e4e4e9;border-radius:12px;padding:16px 20px;margin-bottom:24px}.intro p{margin:0 0 10px}
.intro dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;margin:8px 0 0}.intro dt{font-weight:600}.intro dd{margin:0;min-width:0;overflow-wrap:anywhere}.intro dd code{word-break:break-all}
h2.tag{font-size:20px;margin:32px 0 4px}.tagdesc{margin:0 0 12px;color:#4a4f5c}
section.op{background:#fff;border:1px solid #e4e4e9;border-radius:12px;padding:18px 20px;margin:0 0 16px}
section.op h3{font-size:18px;margin:0 0 8px}.line{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin-bottom:8px}
.path{font-weight:600;overflow-wrap:anywhere}.scope{font-size:12px;color:#4a4f5c;border:1px solid #d4d4dc;border-radius:999px;padding:1px 8px}
.m{display:inline-block;min-width:56px;text-align:center;font:700 12px/1.8 ui-monospace,Menlo,Consolas,monospace;border-radius:6px;padding:0 6px;color:#fff}
.m-get{background:#0f766e}.m-post{background:#6d28d9}.m-delete{background:#b91c1c}.m-put{background:#b45309}
h4{font-size:13px;text-transform:uppercase;letter-spacing:.05em;color:#5b6170;margin:18px 0 6px}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{text-align:left;padding:6px 8px;border-top:1px solid #ececf1;vertical-align:top}th{font-weight:600;color:#4a4f5c;font-size:13px}
td code{font-weight:600}.type{color:#4a4f5c;font-size:13px}.req{font-size:11px;font-weight:700;color:#b91c1c;text-transform:uppercase;letter-spacing:.04em}.limits{font-size:12px;color:#5b6170}
pre{background:#16181d;color:#f4f4f6;padding:12px 14px;border-radius:8px;overflow-x:auto;margin:0;white-space:pre}
ul.fields{list-style:none;margin:4px 0 0;padding:0 0 0 12px;border-left:2px solid #ede9fe}ul.fields li{padding:4px 0}ul.fields li p{margin:2px 0 0;color:#4a4f5c;font-size:14px}
.name{font-weight:600}
details{border-top:1px solid #ececf1;padding:6px 0}summary{cursor:pointer;font-weight:600;display:flex;gap:8px;align-items:center}
.st{font:700 13px ui-monospace,Menlo,Consolas,monospace;border-radius:6px;padding:0 6px}.ok{background:#dcfce7;color:#14532d}.ko{background:#fee2e2;color:#7f1d1d}
details .body{padding:6px 0 4px}
footer{text-align:center;font-size:13px;color:#5b6170;padding:0 16px 32px}
@media (max-width:600px){.intro dl{grid-template-columns:1fr}.intro dd{margin-bottom:6px}}
@media (min-width:960px){.layout{grid-template-columns:240px minmax(0,1fr);gap:40px}nav.toc{position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto;padding-bottom:24px}nav.toc ul{display:block}nav.toc li{margin:2px 0}nav.toc a{background:none;border:0}}`;

/** The reference page of the document (an OpenAPI 3.1 document made by openApiDocument). */
export function referencePage(doc: Json): string {
  const info = doc.info as { title: string; description: string };
  const serverUrl = (doc.servers as { url: string }[])[0]!.url;
  const tags = doc.tags as { name: string; description: string }[];
  const components = doc.components as { responses: Record<string, Json>; schemas: Record<string, Json> };
  const operations = Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item)
      .sort(([a], [b]) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b))
      .map(([method, op]) => ({ path, method, op })),
  );
  const byTag = (tag: string) => operations.filter(({ op }) => op.tags.includes(tag));

  const response = (status: string, r: Json) => {
    const ref = typeof r.$ref === 'string' ? r.$ref.split('/').pop()! : null;
    const resolved = ref ? components.responses[ref]! : r;
    const schema = (resolved.content as { 'application/json'?: { schema: Json } } | undefined)?.['application/json']?.schema;
    const shown = schema && typeof schema.$ref === 'string' ? components.schemas[schema.$ref.split('/').pop()!]! : schema;
    return html`<details${status.startsWith('2') ? raw(' open') : null}><summary><span class="st ${status.startsWith('2') ? 'ok' : 'ko'}">${status}</span> ${String(
      resolved.description ?? '',
    ).replace(/`/g, '')}</summary><div class="body">${ref ? html`<p class="type">The standard error shape <code>Error</code>.</p>` : shown ? fields(shown) : null}</div></details>`;
  };

  const section = ({ path, method, op }: (typeof operations)[number]) => html`<section class="op" id="${op.operationId}" aria-labelledby="${op.operationId}-h">
<h3 id="${op.operationId}-h">${op.summary}</h3>
<div class="line"><span class="m m-${method}">${method.toUpperCase()}</span><code class="path">${path}</code><span class="scope">${op['x-scope'] === 'read_write' ? 'read_write key' : 'read key'}</span></div>
${prose(op.description)}
<p class="type">operationId <code>${op.operationId}</code></p>
${
  op.parameters.length
    ? html`<h4>Parameters</h4><table><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th></tr></thead><tbody>${op.parameters.map(
        (p) =>
          html`<tr><td><code>${p.name}</code>${p.required ? html` <span class="req">required</span>` : null}</td><td>${p.in}</td><td><span class="type">${typeLabel(p.schema)}</span>${
            constraints(p.schema).length ? html` <span class="limits">${constraints(p.schema).join(', ')}</span>` : null
          }</td></tr>`,
      )}</tbody></table>`
    : null
}
${op.requestBody ? html`<h4>Request body (JSON)</h4>${fields(op.requestBody.content['application/json'].schema)}` : null}
<h4>Example</h4><pre><code>${curlOf(method, serverUrl, path, op)}</code></pre>
<h4>Responses</h4>${Object.entries(op.responses).map(([status, r]) => response(status, r))}
</section>`;

  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${info.title} reference</title><meta name="description" content="${info.title}: keys, calls, parameters and answers.">
<style>${raw(STYLE)}</style></head>
<body><header class="top"><a class="brand" href="#top">${info.title}</a><span class="badge">v1</span><a class="json" href="/api/v1/openapi.json">OpenAPI document (JSON)</a></header>
<div class="layout"><nav class="toc" aria-label="Operations">${tags.map(
    (tag) =>
      html`<h2>${tag.name}</h2><ul>${byTag(tag.name).map(
        ({ method, op }) => html`<li><a href="#${op.operationId}"><span class="m m-${method}">${method.toUpperCase()}</span>${op.summary}</a></li>`,
      )}</ul>`,
  )}</nav>
<main id="top"><h1>${info.title} reference</h1>
<div class="intro">${prose(info.description)}<dl><dt>Base URL</dt><dd><code>${serverUrl}</code></dd><dt>Authentication</dt><dd><code>Authorization: Bearer vr_live_…</code></dd><dt>Errors</dt><dd>${fields(
    components.schemas.Error!,
  )}</dd></dl></div>
${tags.map((tag) => html`<h2 class="tag">${tag.name}</h2><p class="tagdesc">${tag.description}</p>${byTag(tag.name).map(section)}`)}
</main></div>
<footer>Generated from the API's own contract. The machine-readable document is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</footer>
</body></html>`.value;
}
