import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELLO_WORDS } from '../upstreams/scenarios';
import { startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('the Vercel AI SDK against the gateway', () => {
  it.each(['openai/gpt-4o-mini', 'anthropic/claude-haiku-4-5'])('streams %s and reads the usage frame', async (model) => {
    const { apiKey, balance } = await stack.fundedAccount('2');
    const gateway = createOpenAICompatible({ name: 'gateway', apiKey, baseURL: `${stack.gateway.url}/v1`, includeUsage: true });
    const result = streamText({ model: gateway(model), prompt: 'Say hello' });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe(HELLO_WORDS.join(''));
    expect(await result.finishReason).toBe('stop');
    const usage = await result.usage;
    expect(usage.outputTokens).toBe(HELLO_WORDS.length);
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(Number(await balance())).toBeLessThan(2);
  });
});
