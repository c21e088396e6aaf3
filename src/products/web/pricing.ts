import type { Tier } from '../../web/rails/types';

/** Spec "Prices", in micro-dollars. */
export const SCRAPE_PRICE_MICROS: Record<Tier, number> = { standard: 2_000, stealth: 8_000 };
export const CRAWL_PAGE_MICROS = 5_000;
export const EXTRACT_RECORD_MICROS = 10_000;
