import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATED_ENCRYPTED_REASONING } from '../upstreams/openai-responses';
import { HELLO_WORDS, TOOL_ARGUMENTS } from '../upstreams/scenarios';
import { STACK_ADMIN_TOKEN, startStack, type Stack } from './stack';

/**
 * `POST /v1/responses` (OpenAI's Responses API) through the official `openai` SDK, on an
 * OpenAI-served model (passed through) and on models of other providers (translated), with the
 * gateway's own store for `previous_response_id`, retrieve, delete and input_items.
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ UPSTREAM_TIMEOUT_MS: '3000' });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

const HELLO = HELLO_WORDS.join('');
const micros = (usd: string | null | undefined) => Math.round(Number(usd) * 1e6);
const OPENAI_MODEL = 'openai/gpt-4o-mini';
const ANTHROPIC_MODEL = 'anthropic/claude-haiku-4-5';
const MODELS = [
  ['an OpenAI model (passed through)', OPENAI_MODEL],
  ['an Anthropic model (translated)', ANTHROPIC_MODEL],
  ['a Gemini model (translated)', 'google/gemini-2.5-flash-lite'],
] as const;

async function client(usd = '5') {
  const account = await stack.fundedAccount(usd);
  return { ...account, openai: new OpenAI({ apiKey: account.apiKey, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 }) };
}

const weatherTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] },
  strict: false,
};

interface Pricing {
  input: number;
  output: number;
  cache_read?: number;
  cache_write?: number;
}
async function pricing(model: string): Promise<Pricing> {
  const { data } = (await (await fetch(`${stack.gateway.url}/v1/models`)).json()) as { data: { id: string; pricing: Pricing }[] };
  return data.find((entry) => entry.id === model)!.pricing;
}

/** The catalog prices (USD per token) times a Responses usage, in micro-dollars, rounded once (D16). */
async function priced(model: string, usage: OpenAI.Responses.ResponseUsage) {
  const price = await pricing(model);
  const cached = usage.input_tokens_details.cached_tokens;
  const writes = (usage.input_tokens_details as { cache_write_tokens?: number }).cache_write_tokens ?? 0;
  const uncached = usage.input_tokens - cached - writes;
  const usd = uncached * price.input + cached * (price.cache_read ?? price.input) + writes * (price.cache_write ?? price.input) + usage.output_tokens * price.output;
  return Math.round(usd * 1e6);
}

describe.each(MODELS)('responses on %s', (_, model) => {
  it('answers responses.create with the usage itemized, its cost in headers equal to the balance drop and to the catalog prices of that usage', async () => {
    const { openai, balance } = await client();
    const before = micros(await balance());
    const { data, response } = await openai.responses
      .create({ model, input: 'Say hello [reports-prompt-tokens=2000] [reports-cache-read=1200] [reports-cache-write=300] [reports-reasoning=7]', store: false })
      .withResponse();
    expect(data.output_text).toBe(HELLO);
    expect(data.object).toBe('response');
    expect(data.status).toBe('completed');
    expect(data.model).toBe(model);
    expect(data.usage!.input_tokens_details.cached_tokens).toBe(1200);
    expect(data.usage!.input_tokens).toBeGreaterThanOrEqual(3200);
    const cost = micros(response.headers.get('x-service-cost'));
    expect(cost).toBeGreaterThan(0);
    expect(before - micros(await balance())).toBe(cost);
    expect(cost).toBe(await priced(model, data.usage!));
  });

  it('streams the Responses events, the SDK assembling the final response, with x_service beside it equal to the balance drop', async () => {
    const { openai, balance } = await client();
    const before = micros(await balance());
    const stream = openai.responses.stream({ model, input: 'Say hello [reports-cache-read=50]' });
    const types: string[] = [];
    let text = '';
    let completed: (OpenAI.Responses.ResponseCompletedEvent & { x_service?: Record<string, string> }) | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event;
    }
    const final = await stream.finalResponse();
    expect(text).toBe(HELLO);
    expect(final.output_text).toBe(HELLO);
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.output_item.added');
    expect(types).toContain('response.content_part.added');
    expect(types).toContain('response.output_text.done');
    expect(types.at(-1)).toBe('response.completed');
    expect(completed!.response.usage!.input_tokens_details.cached_tokens).toBe(50);
    expect(completed!.x_service).toEqual({ request_id: expect.stringMatching(/^req_/), cost_usd: expect.stringMatching(/^\d+\.\d{6}$/), credits_remaining_usd: await balance() });
    const cost = micros(completed!.x_service!.cost_usd);
    expect(before - micros(await balance())).toBe(cost);
    expect(cost).toBe(await priced(model, completed!.response.usage!));
  });

  it('ends a stream whose upstream dies with an error event, charged only for what was delivered', async () => {
    const { apiKey, balance } = await client();
    const before = micros(await balance());
    const res = await fetch(`${stack.gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model, stream: true, store: false, input: '[die]' }),
    });
    const frames = (await res.text()).split('\n\n').filter(Boolean);
    expect(frames.some((frame) => frame.includes('Partial'))).toBe(true);
    expect(frames.some((frame) => frame.startsWith('event: response.completed'))).toBe(false);
    const last = JSON.parse(frames.at(-1)!.split('\n')[1]!.slice('data: '.length));
    expect(last).toMatchObject({ type: 'error', code: 'provider_error', x_service: { cost_usd: expect.any(String) } });
    expect(before - micros(await balance())).toBe(micros(last.x_service.cost_usd));
  });

  it('round-trips a function tool, chained by previous_response_id, streamed and not', async () => {
    const { openai } = await client();
    for (const stream of [false, true]) {
      const first = stream
        ? await openai.responses.stream({ model, input: 'Weather in Paris? [tool]', tools: [weatherTool] }).finalResponse()
        : await openai.responses.create({ model, input: 'Weather in Paris? [tool]', tools: [weatherTool] });
      const call = first.output.find((item) => item.type === 'function_call');
      expect(call, `stream: ${stream}`).toMatchObject({ type: 'function_call', name: 'get_weather', call_id: expect.any(String) });
      expect(JSON.parse((call as OpenAI.Responses.ResponseFunctionToolCall).arguments)).toEqual(TOOL_ARGUMENTS);
      const second = await openai.responses.create({
        model,
        previous_response_id: first.id,
        input: [{ type: 'function_call_output', call_id: (call as OpenAI.Responses.ResponseFunctionToolCall).call_id, output: '{"temperature": 18}' }],
        tools: [weatherTool],
      });
      expect(second.output_text, `stream: ${stream}`).toBe(HELLO);
      expect(second.previous_response_id).toBe(first.id);
    }
  });
});

describe('stored responses', () => {
  it('retrieves, lists the input items of, and deletes a stored response; another account gets 404', async () => {
    const { openai } = await client();
    const created = await openai.responses.create({ model: ANTHROPIC_MODEL, instructions: 'Be brief.', input: [{ role: 'user', content: 'Say hello' }] });
    const got = await openai.responses.retrieve(created.id);
    expect(got).toMatchObject({ id: created.id, object: 'response', status: 'completed', output_text: HELLO, instructions: 'Be brief.' });
    const items = await openai.responses.inputItems.list(created.id);
    expect(items.data).toEqual([expect.objectContaining({ type: 'message', role: 'user', content: 'Say hello', id: expect.any(String) })]);

    const other = await client();
    for (const call of [() => other.openai.responses.retrieve(created.id), () => other.openai.responses.inputItems.list(created.id), () => other.openai.responses.delete(created.id)]) {
      expect(await call().catch((err: unknown) => err)).toMatchObject({ status: 404 });
    }
    const followUp = await other.openai.responses.create({ model: ANTHROPIC_MODEL, previous_response_id: created.id, input: 'again' }).catch((err: unknown) => err);
    expect(followUp).toMatchObject({ status: 404, error: { code: 'not_found', param: 'previous_response_id' } });

    await openai.responses.delete(created.id);
    expect(await openai.responses.retrieve(created.id).catch((err: unknown) => err)).toMatchObject({ status: 404 });
  });

  it('refuses to store a conversation over 8 MiB, naming store', async () => {
    const { openai, balance } = await client();
    const error = await openai.responses.create({ model: ANTHROPIC_MODEL, input: 'x'.repeat(8 * 1024 * 1024 + 1) }).catch((err: unknown) => err);
    expect(error).toMatchObject({ status: 400, error: { code: 'invalid_request', param: 'store' } });
    expect(await balance()).toBe('5.000000');
  });

  it('stores nothing with store: false', async () => {
    const { openai } = await client();
    for (const model of [OPENAI_MODEL, ANTHROPIC_MODEL]) {
      const created = await openai.responses.create({ model, input: 'Say hello', store: false });
      expect(created.output_text).toBe(HELLO);
      expect(await openai.responses.retrieve(created.id).catch((err: unknown) => err), model).toMatchObject({ status: 404 });
    }
  });

  it('changes model halfway: a follow-up on another model gets the whole history, and OpenAI gets it as input, never its own id', async () => {
    const { openai } = await client();
    const first = await openai.responses.create({ model: OPENAI_MODEL, input: 'My name is Ada. Say hello' });
    expect(first.id).toMatch(/^resp_/);
    const second = await openai.responses.create({ model: ANTHROPIC_MODEL, previous_response_id: first.id, input: 'What is my name?' });
    expect(second.output_text).toBe(HELLO);
    const sentToAnthropic = stack.upstreams.anthropic.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    expect(JSON.stringify(sentToAnthropic.messages)).toContain('My name is Ada.');
    expect(sentToAnthropic.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(sentToAnthropic.messages[1])).toContain(HELLO);

    const third = await openai.responses.create({ model: OPENAI_MODEL, previous_response_id: second.id, input: 'And again?' });
    expect(third.output_text).toBe(HELLO);
    const sentToOpenAI = stack.upstreams.openai.requests.at(-1)!.body as { input: { role?: string; type?: string; id?: string }[]; previous_response_id?: string };
    expect(sentToOpenAI.previous_response_id).toBeUndefined();
    expect(sentToOpenAI.input.map((item) => item.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(sentToOpenAI.input.every((item) => item.id === undefined)).toBe(true);
    const items = await openai.responses.inputItems.list(third.id, { order: 'asc' });
    expect(items.data.map((item) => (item as { role?: string }).role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
  });
});

describe('responses: tools, billing and the rest of the chat route', () => {
  it('passes store: false, encrypted reasoning and function tools through on an OpenAI model, its hosted tools left out and announced', async () => {
    const { openai } = await client();
    const sent = { model: OPENAI_MODEL, input: 'Say hello', store: false, include: ['reasoning.encrypted_content'], reasoning: { summary: 'auto' }, tools: [weatherTool], prompt_cache_key: 'k1' } as const;
    const { data: answer, response } = await openai.responses.create({ ...sent, tools: [weatherTool, { type: 'web_search' }] } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming).withResponse();
    expect(answer.output[0]).toMatchObject({ type: 'reasoning', encrypted_content: SIMULATED_ENCRYPTED_REASONING });
    expect(stack.upstreams.openai.requests.at(-1)!.body).toEqual({ ...sent, model: 'gpt-4o-mini' });
    // OpenAI bills web_search per call, which no hold counts.
    expect(response.headers.get('x-service-unsupported-params')).toContain('tools');
  });

  it('leaves hosted tools out on a translated model and announces them, so Codex-style requests still run', async () => {
    const { openai } = await client();
    const { data, response } = await openai.responses
      .create({ model: ANTHROPIC_MODEL, input: 'Say hello', store: false, include: ['reasoning.encrypted_content'], tools: [weatherTool, { type: 'web_search' }] })
      .withResponse();
    expect(data.output_text).toBe(HELLO);
    expect(response.headers.get('x-service-unsupported-params')).toContain('tools');
    const sent = stack.upstreams.anthropic.requests.at(-1)!.body as { tools: { name: string }[] };
    expect(sent.tools.map((tool) => tool.name)).toEqual(['get_weather']);
  });

  it('answers 402 with error.funding on an empty balance', async () => {
    const { openai, balance } = await client('0');
    const error = await openai.responses.create({ model: ANTHROPIC_MODEL, input: 'hi' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ status: 402, error: { code: 'insufficient_credits', funding: expect.objectContaining({ fund_url: expect.any(String) }) } });
    expect(await balance()).toBe('0.000000');
  });

  it('quotes a Responses body and records the request under /v1/responses', async () => {
    const { apiKey, openai } = await client();
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const quote = await fetch(`${stack.gateway.url}/v1/quote`, { method: 'POST', headers, body: JSON.stringify({ path: '/v1/responses', body: { model: ANTHROPIC_MODEL, input: 'hi', max_output_tokens: 100 } }) });
    expect(quote.status).toBe(200);
    expect(await quote.json()).toMatchObject({ object: 'quote', path: '/v1/responses', model: ANTHROPIC_MODEL, affordable: true });
    const { response } = await openai.responses.create({ model: ANTHROPIC_MODEL, input: 'Say hello', store: false }).withResponse();
    const requestId = response.headers.get('x-service-request-id')!;
    const lookup = await fetch(`${stack.gateway.url}/v1/requests/${requestId}`, { headers });
    expect(await lookup.json()).toMatchObject({ path: '/v1/responses', model: ANTHROPIC_MODEL });
  });

  it('refuses what a translated model cannot carry with a 400 naming it', async () => {
    const { openai } = await client();
    const error = await openai.responses.create({ model: ANTHROPIC_MODEL, input: [{ type: 'item_reference', id: 'msg_1' }] }).catch((err: unknown) => err);
    expect(error).toMatchObject({ status: 400, error: { code: 'invalid_request', param: 'input[0].type' } });
  });

  it('lets a sub-key read only its own stored responses', async () => {
    const { apiKey, openai } = await client();
    const minted = await fetch(`${stack.gateway.url}/agent/keys`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'sub' }) });
    const sub = new OpenAI({ apiKey: ((await minted.json()) as { api_key: string }).api_key, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 });
    const parents = await openai.responses.create({ model: ANTHROPIC_MODEL, input: 'Say hello' });
    const own = await sub.responses.create({ model: ANTHROPIC_MODEL, input: 'Say hello' });
    expect(await sub.responses.retrieve(own.id)).toMatchObject({ id: own.id });
    expect(await sub.responses.retrieve(parents.id).catch((err: unknown) => err)).toMatchObject({ status: 404 });
    expect(await openai.responses.retrieve(own.id)).toMatchObject({ id: own.id });
  });
});

void STACK_ADMIN_TOKEN;
