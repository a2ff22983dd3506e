import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { API } from '../../../contract/api/paths.js';
import { html, raw, type SafeHtml } from '../../lib/html.js';

/**
 * The view beacon of the public players (issue 19, decisions 144 and 155): a few hundred bytes of inline script
 * that any page of ours showing published videos includes once, after its players. Every
 * `<video data-view="{slug}">` of the page reports, once per page view each, that it started playing
 * and that it passed 25, 50, 75 and 100 % of its length, with `navigator.sendBeacon` (a form body, a
 * simple request that survives the page being closed), or `fetch(…, { keepalive })` where sendBeacon
 * is missing or refuses. Each beacon carries the player's view token (`data-view-token`, minted by the
 * server for this page view): the server's own identifier, not the viewer's. No cookie, no storage: the
 * page works the same without it. A player that starts gets `data-played`, which hides its length badge
 * (durationBadge in publications.pages.ts: the length is shown before the video plays).
 *
 * A page that includes it must also call `allowBeaconScript(reply)`: its CSP names the script by its
 * hash, so no other inline script may run (`script-src 'self' 'sha256-…'`, never 'unsafe-inline').
 *
 * Use: `<video … ${viewAttribute(slug, token)}>…</video>` for each player, then `${BEACON_SCRIPT_TAG}` once,
 * at the end of the body.
 */
export const BEACON_SCRIPT =
  `(()=>{var u=${JSON.stringify(API.publications.viewBeacon.path)},q=(v,m)=>{var b=new URLSearchParams({slug:v.dataset.view,milestone:m,token:v.dataset.viewToken||""});try{if(navigator.sendBeacon(u,b))return}catch(e){}` +
  `fetch(u,{method:"POST",body:b,keepalive:!0,credentials:"omit"}).catch(()=>{})};` +
  `document.querySelectorAll("video[data-view]").forEach(v=>{var d={},g=m=>{d[m]||(d[m]=1,q(v,m))};` +
  `v.addEventListener("play",()=>{v.dataset.played=1});` +
  `v.addEventListener("playing",()=>g("started"));` +
  `v.addEventListener("timeupdate",()=>{var p=v.currentTime/v.duration;d.started&&[25,50,75].forEach(n=>{p>=n/100&&g("p"+n)})});` +
  `v.addEventListener("ended",()=>{["started","p25","p50","p75","p100"].forEach(g)})})})()`;

/** The script element, to put once at the end of a page's body. */
export const BEACON_SCRIPT_TAG = html`<script>${raw(BEACON_SCRIPT)}</script>`;

/** The CSP source that allows exactly this script. */
export const BEACON_SCRIPT_HASH = `'sha256-${createHash('sha256').update(BEACON_SCRIPT).digest('base64')}'`;

/** A publication shown in a page being served, with the view token minted for that page (views.token.ts). */
export interface Viewed {
  viewToken: string;
}

/**
 * The attributes that make a `<video>` report its views: the publication's slug and the view token of
 * this page (decision 155), without which its beacons count nothing.
 */
export const viewAttribute = (slug: string, viewToken: string): SafeHtml => html`data-view="${slug}" data-view-token="${viewToken}"`;

/**
 * Lets this page run the beacon script and nothing else inline: its hash joins the `script-src` of the
 * policy the security hook already set on the reply (the document's or the embed's). The beacon goes
 * to our own origin, which `connect-src 'self'` already allows.
 */
export function allowBeaconScript(reply: FastifyReply): FastifyReply {
  const csp = reply.getHeader('content-security-policy');
  if (typeof csp === 'string' && !csp.includes(BEACON_SCRIPT_HASH)) {
    reply.header('content-security-policy', csp.replace(/script-src ([^;]*)/, `script-src $1 ${BEACON_SCRIPT_HASH}`));
  }
  return reply;
}
