import type { DailySpendRow } from '../../../durable-objects/account/usage';

/**
 * Spend per day by model for the usage chart, from the ledger's charges summed per UTC day and
 * purpose: pure, so the chart's arithmetic is tested without a page.
 */

const DAY_MS = 86_400_000;
/** Past this many models, the smallest are drawn together as `OTHER`. */
export const MAX_SERIES = 6;
export const OTHER = 'other';

/**
 * The model a charge was for, from its hold's purpose: `chat:openai/gpt-4o` and
 * `image-job:openai/gpt-image-1` name their model after the kind; a purpose without one (`scrape`,
 * `crawl`, `extract`) is its own label.
 */
export function modelOfPurpose(purpose: string | null): string {
  if (!purpose) return OTHER;
  const colon = purpose.indexOf(':');
  return colon < 0 ? purpose : purpose.slice(colon + 1);
}

export interface UsageSeries {
  /** The days shown, oldest first, `YYYY-MM-DD` (UTC). */
  days: string[];
  /** One series per model, largest total first; `OTHER` (when there is one) last. */
  models: string[];
  /** `cells[day][model]`: micro-dollars charged. */
  cells: number[][];
  /** Micro-dollars per day. */
  dayTotals: number[];
  totalMicros: number;
}

/** The first instant of the window: 00:00 UTC, `days - 1` days before `now`'s day. */
export function windowStart(now: number, days = 30): number {
  return Math.floor(now / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;
}

/** Spend per day (the `days` UTC days ending with `now`'s) by model, at most `maxSeries` series. */
export function spendByDayAndModel(rows: DailySpendRow[], now: number, days = 30, maxSeries = MAX_SERIES): UsageSeries {
  const start = windowStart(now, days);
  const dayNames = Array.from({ length: days }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
  const dayIndex = new Map(dayNames.map((day, i) => [day, i]));

  const byModel = new Map<string, number>();
  for (const row of rows) {
    if (!dayIndex.has(row.day) || row.micros <= 0) continue;
    const model = modelOfPurpose(row.purpose);
    byModel.set(model, (byModel.get(model) ?? 0) + row.micros);
  }
  const ranked = [...byModel].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([model]) => model);
  const kept = ranked.length > maxSeries ? ranked.slice(0, maxSeries - 1).filter((model) => model !== OTHER) : ranked.filter((model) => model !== OTHER);
  const models = kept.length < ranked.length ? [...kept, OTHER] : kept;
  const series = new Map(models.map((model, i) => [model, i]));

  const cells = dayNames.map(() => models.map(() => 0));
  for (const row of rows) {
    const day = dayIndex.get(row.day);
    if (day === undefined || row.micros <= 0) continue;
    const model = modelOfPurpose(row.purpose);
    const at = series.get(model) ?? series.get(OTHER)!;
    cells[day]![at]! += row.micros;
  }
  const dayTotals = cells.map((day) => day.reduce((sum, micros) => sum + micros, 0));
  return { days: dayNames, models, cells, dayTotals, totalMicros: dayTotals.reduce((sum, micros) => sum + micros, 0) };
}

/** The chart's top value: the largest day rounded up to 1, 2 or 5 times a power of ten (at least 1 micro-dollar). */
export function niceCeiling(micros: number): number {
  if (micros <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(micros));
  for (const step of [1, 2, 5, 10]) if (step * power >= micros) return step * power;
  return 10 * power;
}

export interface ChartBox {
  width: number;
  height: number;
  /** Room on the left for the axis labels, and at the bottom for the days. */
  left: number;
  bottom: number;
  top: number;
}

export interface Bar {
  day: string;
  model: string;
  /** The model's series, for its colour. */
  series: number;
  micros: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Stacked bars, one column per day, one segment per model with spend that day, in series order
 * from the bottom. A segment too thin to see is drawn 1 unit tall.
 */
export function chartBars(usage: UsageSeries, box: ChartBox): { bars: Bar[]; ceiling: number } {
  const ceiling = niceCeiling(Math.max(0, ...usage.dayTotals));
  const plotHeight = box.height - box.top - box.bottom;
  const slot = (box.width - box.left) / usage.days.length;
  const barWidth = Math.max(1, slot * 0.7);
  const bars: Bar[] = [];
  usage.days.forEach((day, d) => {
    let base = box.height - box.bottom;
    usage.models.forEach((model, m) => {
      const micros = usage.cells[d]![m]!;
      if (micros <= 0) return;
      const height = Math.max(1, (micros / ceiling) * plotHeight);
      base -= height;
      bars.push({ day, model, series: m, micros, x: round(box.left + d * slot + (slot - barWidth) / 2), y: round(base), width: round(barWidth), height: round(height) });
    });
  });
  return { bars, ceiling };
}

const round = (value: number) => Math.round(value * 100) / 100;
