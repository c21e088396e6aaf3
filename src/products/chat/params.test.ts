import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors';
import type { ChatRequest } from '../../providers/chat/types';
import { applyParamRules } from './params';

const base: ChatRequest = { model: 'x/y', messages: [{ role: 'user', content: 'hi' }] };

function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    if (err instanceof GatewayError) return { status: err.status, param: err.options.param };
  }
  return null;
}

describe('applyParamRules', () => {
  it.each([
    [{ n: 2 }, 2, 'n'],
    [{ n: 9 }, 3, 'n'],
    [{ response_format: { type: 'json_object' } }, 3, 'response_format'],
  ] as const)('refuses %o for group %i with 400 naming %s', (extra, group, param) => {
    expect(refusal(() => applyParamRules({ ...base, ...extra }, group))).toEqual({ status: 400, param });
  });

  it.each([
    [{ n: 3, response_format: { type: 'json_object' }, seed: 7, logprobs: true, logit_bias: { '1': 2 } }, 1, []],
    [{ response_format: { type: 'json_object' }, seed: 7, frequency_penalty: 0.5 }, 2, []],
    [{ logprobs: true, top_logprobs: 2, logit_bias: { '1': 2 }, seed: 1 }, 2, ['logprobs', 'top_logprobs', 'logit_bias']],
    [{ seed: 7, frequency_penalty: 0.5, presence_penalty: 0.1 }, 3, ['seed', 'frequency_penalty', 'presence_penalty']],
    [{ user: 'u1', parallel_tool_calls: false }, 3, ['user', 'parallel_tool_calls']],
    [{ response_format: { type: 'text' } }, 3, []],
  ] as const)('runs %o on group %i and announces %j', (extra, group, announced) => {
    const plan = applyParamRules({ ...base, ...extra } as ChatRequest, group);
    expect(plan.unsupported).toEqual(announced);
    for (const name of announced) expect(plan.request).not.toHaveProperty(name);
  });

  it('announces what the route\'s adapter rejects even where its group applies it (Cerebras: the penalties)', () => {
    const plan = applyParamRules({ ...base, temperature: 0.2, seed: 7, frequency_penalty: 0.5, presence_penalty: 0.1 }, 2, ['frequency_penalty', 'presence_penalty']);
    expect(plan.unsupported).toEqual(['frequency_penalty', 'presence_penalty']);
    expect(plan.request).toEqual({ ...base, temperature: 0.2, seed: 7 });
  });

  it('passes unknown members to group 1 unchanged', () => {
    const plan = applyParamRules({ ...base, reasoning_effort: 'low', metadata: { a: '1' } }, 1);
    expect(plan.request).toMatchObject({ reasoning_effort: 'low', metadata: { a: '1' } });
    expect(plan.unsupported).toEqual([]);
  });
});
