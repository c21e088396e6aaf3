/** Sync renders live with their jobs (`src/jobs/sync-render.ts`); the routes only call them. */
export { BACKSTOP_DELAY_SECONDS, renderDurably } from '../../jobs/sync-render';
