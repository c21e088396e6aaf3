import type { Context } from 'hono';
import { PASSKEY_JS } from './passkey-script';
import WEBAUTHN_JS from './webauthn-browser.js';

/**
 * The pages' own stylesheet and script, served by the Worker (no external scripts, no inline
 * code: the CSP allows 'self' only). Small enough to live here as text.
 */

const PAGES_CSS = `
:root { color-scheme: light; --ink: #1a1a1a; --muted: #4d4d4d; --line: #c8c8c8; --accent: #0b57d0; --error: #b3261e; --ok: #146c2e; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fafafa; }
main { max-width: 40rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.15rem; margin: 0 0 .75rem; }
section { background: #fff; border: 1px solid var(--line); border-radius: .5rem; padding: 1rem; margin-top: 1rem; }
.muted { color: var(--muted); font-size: .9rem; }
.balance { font-size: 1.25rem; margin: 1rem 0 .25rem; }
.balance strong { font-variant-numeric: tabular-nums; }
.notice { color: var(--ok); font-weight: 600; min-height: 1.5em; margin: 0; }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
input[type=number], input[type=text] { display: block; width: 100%; max-width: 16rem; font: inherit; padding: .5rem .6rem; border: 1px solid #767676; border-radius: .375rem; }
button { margin-top: .75rem; font: inherit; font-weight: 600; color: #fff; background: var(--accent); border: 0; border-radius: .375rem; padding: .6rem 1.1rem; cursor: pointer; min-height: 44px; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.error { color: var(--error); font-weight: 600; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.address { word-break: break-all; font-size: .95rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem .75rem; }
dt { font-weight: 600; }
dd { margin: 0; }
.qr svg { width: 12rem; height: 12rem; display: block; margin-bottom: .5rem; }
figure { margin: 1rem 0 0; }
figcaption { font-size: .9rem; color: var(--muted); }
input.code { max-width: 11rem; font-size: 1.25rem; letter-spacing: .15em; font-variant-numeric: tabular-nums; }
button.secondary { color: var(--accent); background: #fff; border: 1px solid var(--accent); }
button:disabled { opacity: .6; cursor: progress; }
.status { margin: .5rem 0 0; }
.status:empty { margin: 0; }
section > :last-child, form > :last-child { margin-bottom: 0; }
.bar { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem 1rem; }
.bar h1 { margin: 0; }
.bar button { margin-top: 0; }
a { color: var(--accent); }
pre { background: #fff; border: 1px solid var(--line); border-radius: .375rem; padding: .75rem; margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .875rem; line-height: 1.45; }
section pre { border: 0; padding: 0; }
ul.links { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style: none; padding: 0; margin: 1rem 0 0; }
form.filters { display: flex; flex-wrap: wrap; align-items: end; gap: .5rem .75rem; margin: 1rem 0 .5rem; }
form.filters label { margin: 0; }
form.filters input, form.filters select { width: auto; margin: 0; }
form.filters button { margin-top: 0; }
select { font: inherit; padding: .5rem .6rem; border: 1px solid #767676; border-radius: .375rem; background: #fff; min-height: 44px; }
.ok { color: var(--ok); }
.warn { color: #8a5300; }
`;

/** Polls the balance every 4 seconds and says so when a credit lands, without a reload. */
const FUND_JS = `
(() => {
  const balance = document.getElementById('balance');
  const notice = document.getElementById('notice');
  if (!balance || !balance.dataset.statusUrl) return;
  const micros = (text) => Math.round(Number(String(text).replace(/[^0-9.\\-]/g, '')) * 1e6);
  // As the page writes it (displayUsd): cents, or the micro-dollars below a cent.
  const usd = (m) => {
    const size = Math.abs(m);
    const sign = m < 0 ? '-$' : '$';
    if (size > 0 && size < 10000) return sign + (size / 1e6).toFixed(6).replace(/0+$/, '');
    const cents = Math.round(size / 10000);
    return sign + Math.floor(cents / 100).toLocaleString('en-US') + '.' + String(cents % 100).padStart(2, '0');
  };
  let last = Number(balance.dataset.micros);
  const poll = async () => {
    try {
      const res = await fetch(balance.dataset.statusUrl, { cache: 'no-store' });
      if (res.ok) {
        const body = await res.json();
        const now = micros(body.balance_usd);
        if (now !== last) {
          balance.textContent = usd(now);
          if (now > last && notice) notice.textContent = 'Credit received: +' + usd(now - last) + '.';
          last = now;
        }
      }
    } catch {}
    setTimeout(poll, 4000);
  };
  setTimeout(poll, 4000);
})();
`;

export function pagesCss(c: Context): Response {
  return c.body(PAGES_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' });
}

const SCRIPT_HEADERS = { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' };

/** `/assets/webauthn.js`: @simplewebauthn/browser's UMD build as published (it defines `SimpleWebAuthnBrowser`). */
export function webauthnJs(c: Context): Response {
  return c.body(WEBAUTHN_JS, 200, SCRIPT_HEADERS);
}

/** `/assets/claim.js`: the passkey forms of the claim and sign-in pages. */
export function passkeyJs(c: Context): Response {
  return c.body(PASSKEY_JS, 200, SCRIPT_HEADERS);
}

export function fundJs(c: Context): Response {
  return c.body(FUND_JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' });
}
