import type { Context } from 'hono';

/**
 * `/assets/dashboard.css`: the dashboard's layout on top of `/assets/pages.css` (tables that
 * become labelled rows on a phone, the chart, the key forms). Served by us; the CSP allows no
 * inline style.
 */
const DASHBOARD_CSS = `
main.wide { max-width: 64rem; }
.dash-head { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem 1rem; }
.dash-head h1 { margin: 0; }
.dash-head button { margin-top: 0; }
nav.tabs ul { display: flex; flex-wrap: wrap; gap: .25rem; list-style: none; margin: .75rem 0 0; padding: 0; border-bottom: 1px solid var(--line); }
nav.tabs a { display: block; padding: .5rem .75rem; text-decoration: none; border-radius: .375rem .375rem 0 0; min-height: 44px; line-height: 28px; }
nav.tabs a[aria-current=page] { color: var(--ink); font-weight: 600; background: #fff; border: 1px solid var(--line); border-bottom-color: #fff; margin-bottom: -1px; }
section h2 { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: baseline; gap: .25rem 1rem; }
section h2 .muted { font-weight: 400; }
.figures { display: flex; flex-wrap: wrap; gap: .5rem 2rem; margin: 0; }
.figures div { min-width: 8rem; }
.figures dt { font-weight: 400; color: var(--muted); font-size: .9rem; }
.figures dd { font-size: 1.5rem; font-weight: 600; font-variant-numeric: tabular-nums; }
table.rows { width: 100%; border-collapse: collapse; font-size: .95rem; }
table.rows th, table.rows td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
table.rows th { font-size: .85rem; color: var(--muted); font-weight: 600; }
table.rows td.num, table.rows th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.rows code { font-size: .85rem; word-break: break-all; }
.empty { color: var(--muted); margin: .5rem 0 0; }
.chart svg { display: block; width: 100%; height: auto; }
.chart text { font: 12px system-ui, sans-serif; fill: var(--muted); }
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; padding: 0; margin: .5rem 0 0; font-size: .9rem; }
.legend li { display: flex; align-items: center; gap: .35rem; }
.legend svg { width: .8rem; height: .8rem; flex: none; }
details { margin-top: .75rem; }
summary { cursor: pointer; color: var(--accent); min-height: 44px; display: flex; align-items: center; }
form.filters { display: flex; flex-wrap: wrap; align-items: flex-end; gap: .5rem 1rem; margin-bottom: .75rem; }
form.filters button { margin-top: 0; }
form.filters a { min-height: 44px; display: inline-flex; align-items: center; }
td.time { white-space: nowrap; }
select, input[type=date] { display: block; font: inherit; padding: .5rem .6rem; border: 1px solid #767676; border-radius: .375rem; background: #fff; max-width: 100%; }
.fields { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); align-items: end; gap: .75rem 1rem; margin-bottom: .75rem; }
.fields input { max-width: 100%; width: 100%; }
.name-field { max-width: 24rem; margin-bottom: .75rem; }
.name-field input { max-width: 100%; }
.hint { display: block; font-weight: 400; color: var(--muted); font-size: .85rem; }
fieldset { border: 1px solid var(--line); border-radius: .375rem; padding: .5rem .75rem; margin: 0 0 .75rem; min-width: 0; }
legend { font-weight: 600; padding: 0 .25rem; }
.models { max-height: 16rem; overflow-y: auto; }
.models h3 { font-size: .85rem; color: var(--muted); margin: .5rem 0 .25rem; text-transform: capitalize; }
.models label { display: flex; align-items: center; gap: .5rem; font-weight: 400; margin: 0; min-height: 32px; overflow-wrap: anywhere; }
.models input { flex: none; width: 1.1rem; height: 1.1rem; }
.field-error { color: var(--error); font-weight: 600; font-size: .9rem; margin: .25rem 0 0; }
.actions { display: flex; flex-wrap: wrap; align-items: flex-end; gap: .75rem; }
.actions form { margin: 0; }
button.danger { background: var(--error); }
.secret { display: block; padding: .75rem; background: #f1f4f9; border: 1px solid var(--line); border-radius: .375rem; font-size: 1rem; word-break: break-all; user-select: all; }
.badge { display: inline-block; font-size: .8rem; font-weight: 600; padding: 0 .4rem; border-radius: .25rem; background: #e8eaed; }
.badge.revoked, .badge.expired { background: #fce8e6; color: var(--error); }
.badge.revoked, .badge.refused, .badge.removed, .badge.failed { background: #fce8e6; color: var(--error); }
.badge.active { background: #e6f4ea; color: #137333; }
.badge.pending { background: #fef7e0; color: #8a5300; }
label.check { display: flex; align-items: center; gap: .5rem; font-weight: 400; min-height: 44px; margin: 0; }
label.check input { flex: none; width: 1.1rem; height: 1.1rem; }
code.link { word-break: break-all; }
table.rows td form { margin: 0; }
table.rows td button { margin-top: 0; }
form.invite { margin-bottom: 1rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.pager { display: flex; flex-wrap: wrap; gap: 1rem; margin-top: .75rem; }
.pager a { min-height: 44px; display: inline-flex; align-items: center; }
@media (max-width: 40rem) {
  table.rows thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.rows, table.rows tbody, table.rows tr, table.rows td { display: block; width: 100%; }
  table.rows tr { border-bottom: 1px solid var(--line); padding: .35rem 0; }
  table.rows td { border: 0; padding: .15rem 0; display: flex; gap: 1rem; justify-content: space-between; text-align: right; }
  table.rows td.num { text-align: right; }
  table.rows tbody th { display: block; border: 0; padding: .15rem 0; }
  table.rows td::before { content: attr(data-label); font-weight: 600; color: var(--muted); text-align: left; flex: none; }
  section { padding: .75rem; }
  .chart text { font-size: 22px; }
  nav.tabs a { padding: .5rem .45rem; font-size: .95rem; }
}
`;

export function dashboardCss(c: Context): Response {
  return c.body(DASHBOARD_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' });
}

/** The chart's series colours (the last, grey, for "other"), each readable on white. */
export const SERIES_COLOURS = ['#0b57d0', '#e8710a', '#188038', '#a142f4', '#d01884', '#007b83'];
export const OTHER_COLOUR = '#80868b';
