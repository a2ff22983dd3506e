import { describe, expect, it } from 'vitest';
import { escapeHtml, html, raw, SafeHtml } from './html.js';

describe('the html template (decision 180)', () => {
  const hostile = `<script>alert("x")</script> & 'q'`;

  it('escapes & < > " and \' in text', () => {
    expect(escapeHtml(hostile)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;');
    expect(html`<p>${hostile}</p>`.value).toBe('<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;</p>');
  });

  it('escapes a value in an attribute so that it cannot close the attribute or the tag', () => {
    const value = `x" onerror="alert(1)' autofocus '><b>`;
    const out = html`<img alt="${value}" title='${value}'>`.value;
    expect(out).toBe(`<img alt="x&quot; onerror=&quot;alert(1)&#39; autofocus &#39;&gt;&lt;b&gt;" title='x&quot; onerror=&quot;alert(1)&#39; autofocus &#39;&gt;&lt;b&gt;'>`);
    expect(out.match(/"/g)).toHaveLength(2);
    expect(out.match(/'/g)).toHaveLength(2);
  });

  it('keeps a nested template as it is, and escapes only its own values, once', () => {
    const inner = html`<b>${'a & b'}</b>`;
    expect(inner).toBeInstanceOf(SafeHtml);
    expect(html`<p>${inner} ${'<i>'}</p>`.value).toBe('<p><b>a &amp; b</b> &lt;i&gt;</p>');
    expect(html`<div>${html`<p>${inner}</p>`}</div>`.value).toBe('<div><p><b>a &amp; b</b></p></div>');
  });

  it('puts the items of an array one after another, each escaped unless safe, nested arrays too', () => {
    const items = ['<one>', 'two & three'];
    expect(html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>`.value).toBe('<ul><li>&lt;one&gt;</li><li>two &amp; three</li></ul>');
    expect(html`${['<a>', html`<b>`, ['<c>', [html`<d>`]]]}`.value).toBe('&lt;a&gt;<b>&lt;c&gt;<d>');
    expect(html`<ul>${[]}</ul>`.value).toBe('<ul></ul>');
  });

  it('puts nothing for null, undefined and false, and numbers as they are', () => {
    const none: string | null = null;
    expect(html`[${none}|${undefined}|${false}|${none && html`<b>`}|${0}|${42.5}|${true}]`.value).toBe('[||||0|42.5|true]');
  });

  it('puts a raw constant as it is, and only that', () => {
    const css = raw(`body{font-family:'Segoe UI',"Inter"}a>b{}`);
    expect(html`<style>${css}</style>`.value).toBe(`<style>body{font-family:'Segoe UI',"Inter"}a>b{}</style>`);
    expect(html`<style>${css.value}</style>`.value).toBe('<style>body{font-family:&#39;Segoe UI&#39;,&quot;Inter&quot;}a&gt;b{}</style>');
  });

  it('reads as a string', () => {
    const fragment = html`<p>${'&'}</p>`;
    expect(String(fragment)).toBe('<p>&amp;</p>');
    expect(`${fragment.value}!`).toBe('<p>&amp;</p>!');
  });
});
