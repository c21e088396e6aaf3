import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import { formatUsd } from '../money';

/**
 * The frame of the human pages (claim, sign-in, dashboard): our stylesheet and our own scripts
 * only, deferred and in order (the CSP allows nothing inline and nothing from elsewhere). `styles`
 * adds our own stylesheets after the common one; `wide` widens the page for tables (dashboard).
 */
export function Shell(props: { title: string; scripts?: string[]; styles?: string[]; wide?: boolean; children: Child }) {
  return (
    <>
      {/* Standards mode: without a doctype browsers lay the page out in quirks mode. */}
      {raw('<!DOCTYPE html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{props.title}</title>
          {/* No icon: spares the browser a request for /favicon.ico, which is not a page's. */}
          <link rel="icon" href="data:," />
          <link rel="stylesheet" href="/assets/pages.css" />
          {(props.styles ?? []).map((href) => (
            <link rel="stylesheet" href={href} />
          ))}
          {(props.scripts ?? []).map((src) => (
            <script src={src} defer />
          ))}
        </head>
        <body>
          <main class={props.wide ? 'wide' : undefined}>{props.children}</main>
        </body>
      </html>
    </>
  );
}

/**
 * Money as a person reads it: dollars and cents (`$20.00`, `$1,234.57`), rounded to the cent;
 * below a cent, the micro-dollars that are there (`$0.000099`), so a small charge is never `$0.00`.
 */
export function displayUsd(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const size = Math.abs(micros);
  if (size > 0 && size < 10_000) return `${sign}$${formatUsd(size).replace(/0+$/, '')}`;
  const cents = Math.round(size / 10_000);
  return `${sign}$${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;
}

/** A date as `2026-11-25` (UTC). */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
