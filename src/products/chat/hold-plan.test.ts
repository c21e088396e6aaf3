import { describe, expect, it } from 'vitest';
import type { ChatModel } from '../../catalog/types';
import type { ChatRequest } from '../../providers/chat/types';
import { loweredMaxTokens, planHold, shortfallMessage } from './hold-plan';

const model = { id: 'openai/gpt-4o', maxOutputTokens: 16_384 } as ChatModel;
const price = { inputPerMTok: 2.5, outputPerMTok: 10 };
const request = (extra: Partial<ChatRequest> = {}): ChatRequest => ({ model: model.id, messages: [{ role: 'user', content: 'hi' }], ...extra });

describe('planHold (D5)', () => {
  it('holds prompt plus max_tokens, all or nothing, when max_tokens is given', () => {
    expect(planHold(request({ max_tokens: 100 }), model, price, 1000)).toEqual({
      promptTokens: 1000,
      outputCap: 100,
      minMicros: 3500,
      maxMicros: 3500,
      fixedCap: true,
      predictionTokens: 0,
    });
  });

  it("holds up to the model's output cap, and at least prompt plus one token, without max_tokens", () => {
    expect(planHold(request(), model, price, 1000)).toMatchObject({ outputCap: 16_384, minMicros: 2510, maxMicros: 2500 + 163_840, fixedCap: false });
  });

  it("refuses a cap above the model's own as a 400 naming the member, and takes the model's own", () => {
    for (const [extra, param] of [
      [{ max_tokens: 16_385 }, 'max_tokens'],
      [{ max_completion_tokens: Number.MAX_SAFE_INTEGER }, 'max_completion_tokens'],
    ] as const) {
      expect(() => planHold(request(extra), model, price, 10)).toThrow(expect.objectContaining({ code: 'invalid_request', options: { param } }));
    }
    expect(planHold(request({ max_tokens: 16_384, n: 8 }), model, price, 0)).toMatchObject({ outputCap: 8 * 16_384, maxMicros: 8 * 163_840 });
  });

  it('multiplies the output by n', () => {
    expect(planHold(request({ max_tokens: 10, n: 3 }), model, price, 0)).toMatchObject({ outputCap: 30, maxMicros: 300 });
  });
});

describe('loweredMaxTokens', () => {
  it('lowers the cap to what the hold pays for', () => {
    const plan = planHold(request(), model, price, 1000);
    expect(loweredMaxTokens(plan, 10_000, price, 1)).toBe(750);
    expect(loweredMaxTokens(plan, plan.maxMicros, price, 1)).toBeNull();
  });

  it('never lowers a cap the client set', () => {
    expect(loweredMaxTokens(planHold(request({ max_tokens: 50 }), model, price, 10), 1, price, 1)).toBeNull();
  });
});

describe('shortfallMessage', () => {
  it('says how many output tokens the balance covers', () => {
    const plan = planHold(request({ max_tokens: 4000 }), model, price, 1000);
    expect(shortfallMessage(plan, 10_000, price, model)).toMatch(/covers about 750 output tokens.*Lower max_tokens to 750/);
  });
});
