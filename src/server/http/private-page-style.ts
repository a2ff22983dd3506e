import { PAGE_FONT } from '../modules/publications/publications.pages.js';

/**
 * The frame shared by the customer's private pages (their testimonial page, approval, unsubscribe): the
 * page's font and colours, the company header with its logo, and the small tag beside it. Each page adds
 * its own rules after it.
 */
export const PRIVATE_PAGE_BASE_CSS = `*{box-sizing:border-box}
body{margin:0;font-family:${PAGE_FONT};background:#f4f4f7;color:#16181d;line-height:1.55;-webkit-text-size-adjust:100%}
header{background:#fff;border-bottom:1px solid #e4e5ea;padding:12px 16px;display:flex;align-items:center;justify-content:space-between;gap:12px}
header img{display:block;height:36px;width:auto;max-width:55vw;object-fit:contain}.company{font-weight:700;font-size:17px}
.tag{font-size:12px;font-weight:600;color:#5b6170;background:#f0f1f5;border-radius:999px;padding:4px 10px;white-space:nowrap}`;
