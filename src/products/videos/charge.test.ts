import { describe, expect, it } from 'vitest';
import { findModel } from '../../catalog';
import type { VideoModel } from '../../catalog/types';
import { outputCharge } from './charge';

const lipsync = findModel('kuaishou/kling-lipsync') as VideoModel;
const sora = findModel('openai/sora-2') as VideoModel;

describe('the charge of a finished video', () => {
  it.each([
    [3, 70_000, 5],
    [5, 70_000, 5],
    [5.2, 140_000, 10],
    [10, 140_000, 10],
    [12, 140_000, 10],
    [undefined, 140_000, 10],
  ])('charges a lip-sync render of %s s its seconds rounded up to fal’s 5 s step, never past the 10 s hold', (reported, micros, seconds) => {
    expect(outputCharge(lipsync, 140_000, 10, reported)).toEqual({ micros, seconds });
  });

  it('charges a fixed-length video what was held, whatever length is reported', () => {
    expect(outputCharge(sora, 400_000, 4, 2)).toEqual({ micros: 400_000, seconds: 4 });
  });
});
