import { describe, expect, it } from 'vitest';
import { chartBars, modelOfPurpose, niceCeiling, OTHER, spendByDayAndModel, windowStart } from './usage';

/** 2026-11-30T15:00:00Z */
const NOW = Date.UTC(2026, 10, 30, 15);

describe('modelOfPurpose', () => {
  it.each([
    ['chat:openai/gpt-4o-mini', 'openai/gpt-4o-mini'],
    ['image:openai/gpt-image-1', 'openai/gpt-image-1'],
    ['image-job:black-forest-labs/flux-1.1-pro', 'black-forest-labs/flux-1.1-pro'],
    ['speech:openai/tts-1', 'openai/tts-1'],
    ['scrape', 'scrape'],
    ['crawl', 'crawl'],
    [null, OTHER],
  ])('reads %s as %s', (purpose, model) => {
    expect(modelOfPurpose(purpose)).toBe(model);
  });
});

describe('spendByDayAndModel', () => {
  it('covers the 30 UTC days ending today, oldest first, with zero on days without spend', () => {
    const usage = spendByDayAndModel([], NOW);
    expect(usage.days).toHaveLength(30);
    expect(usage.days[0]).toBe('2026-11-01');
    expect(usage.days.at(-1)).toBe('2026-11-30');
    expect(windowStart(NOW)).toBe(Date.UTC(2026, 10, 1));
    expect(usage).toMatchObject({ models: [], totalMicros: 0 });
    expect(usage.dayTotals.every((micros) => micros === 0)).toBe(true);
  });

  it('sums one model’s kinds of request together, per day, largest model first', () => {
    const usage = spendByDayAndModel(
      [
        { day: '2026-11-29', purpose: 'chat:openai/gpt-4o-mini', micros: 120 },
        { day: '2026-11-29', purpose: 'chat:openai/gpt-4o', micros: 500 },
        { day: '2026-11-30', purpose: 'image:openai/gpt-image-1', micros: 40 },
        { day: '2026-11-30', purpose: 'image-job:openai/gpt-image-1', micros: 60 },
        { day: '2026-11-30', purpose: 'chat:openai/gpt-4o-mini', micros: 30 },
      ],
      NOW,
    );
    expect(usage.models).toEqual(['openai/gpt-4o', 'openai/gpt-4o-mini', 'openai/gpt-image-1']);
    expect(usage.cells.at(-2)).toEqual([500, 120, 0]);
    expect(usage.cells.at(-1)).toEqual([0, 30, 100]);
    expect(usage.dayTotals.slice(-2)).toEqual([620, 130]);
    expect(usage.totalMicros).toBe(750);
  });

  it('leaves out days outside the window and rows that charged nothing', () => {
    const usage = spendByDayAndModel(
      [
        { day: '2026-10-31', purpose: 'chat:old/model', micros: 1_000 },
        { day: '2026-12-01', purpose: 'chat:future/model', micros: 1_000 },
        { day: '2026-11-15', purpose: 'chat:free/model', micros: 0 },
        { day: '2026-11-15', purpose: 'scrape', micros: 7 },
      ],
      NOW,
    );
    expect(usage.models).toEqual(['scrape']);
    expect(usage.totalMicros).toBe(7);
  });

  it(`draws the smallest models together as "${OTHER}" past the series limit, last`, () => {
    const rows = [10, 20, 30, 40, 50].map((micros, i) => ({ day: '2026-11-20', purpose: `chat:m/${i}`, micros }));
    const usage = spendByDayAndModel([...rows, { day: '2026-11-21', purpose: null, micros: 5 }], NOW, 30, 4);
    expect(usage.models).toEqual(['m/4', 'm/3', 'm/2', OTHER]);
    const day = usage.days.indexOf('2026-11-20');
    expect(usage.cells[day]).toEqual([50, 40, 30, 30]);
    expect(usage.cells[day + 1]).toEqual([0, 0, 0, 5]);
  });
});

describe('the chart', () => {
  it.each([
    [0, 1],
    [1, 1],
    [7, 10],
    [12, 20],
    [130, 200],
    [4_999, 5_000],
    [5_001, 10_000],
  ])('tops a largest day of %d micro-dollars at %d', (micros, ceiling) => {
    expect(niceCeiling(micros)).toBe(ceiling);
  });

  it('stacks each day’s models from the bottom, in proportion to the ceiling', () => {
    const usage = spendByDayAndModel(
      [
        { day: '2026-11-30', purpose: 'chat:a/big', micros: 150 },
        { day: '2026-11-30', purpose: 'chat:b/small', micros: 50 },
        { day: '2026-11-01', purpose: 'chat:b/small', micros: 100 },
      ],
      NOW,
    );
    const box = { width: 360, height: 130, left: 60, bottom: 20, top: 10 };
    const { bars, ceiling } = chartBars(usage, box);
    expect(ceiling).toBe(200);
    // Plot: 100 units tall, from y = 110 up; 30 slots of 10 units from x = 60.
    expect(bars).toEqual([
      { day: '2026-11-01', model: 'b/small', series: 1, micros: 100, x: 61.5, y: 60, width: 7, height: 50 },
      { day: '2026-11-30', model: 'a/big', series: 0, micros: 150, x: 351.5, y: 35, width: 7, height: 75 },
      { day: '2026-11-30', model: 'b/small', series: 1, micros: 50, x: 351.5, y: 10, width: 7, height: 25 },
    ]);
  });

  it('keeps a tiny spend visible', () => {
    const usage = spendByDayAndModel(
      [
        { day: '2026-11-30', purpose: 'chat:a/big', micros: 1_000_000 },
        { day: '2026-11-29', purpose: 'chat:b/tiny', micros: 1 },
      ],
      NOW,
    );
    const tiny = chartBars(usage, { width: 360, height: 130, left: 60, bottom: 20, top: 10 }).bars.find((bar) => bar.model === 'b/tiny');
    expect(tiny?.height).toBe(1);
  });
});
