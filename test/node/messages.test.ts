import Anthropic from '@anthropic-ai/sdk';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THINKING_SIGNATURE } from '../upstreams/anthropic';
import { HELLO_WORDS, TOOL_ARGUMENTS } from '../upstreams/scenarios';
import type { RecordedRequest } from '../upstreams/server';
import { startStack, type Stack } from './stack';

/**
 * `POST /v1/messages` as Anthropic's own clients meet it: the official SDK, the Vercel AI SDK's
 * Anthropic provider and Claude Code, against the gateway under `wrangler dev`, on an Anthropic
 * model (passed through) and on an OpenAI one (translated).
 */

const HELLO = HELLO_WORDS.join('');
const ANTHROPIC_MODEL = 'anthropic/claude-haiku-4-5';
const TRANSLATED_MODEL = 'openai/gpt-4o-mini';
/** Group 3, as Anthropic is: translated to Gemini's generateContent. */
const GEMINI_MODEL = 'google/gemini-2.5-flash-lite';
const MODELS = [ANTHROPIC_MODEL, TRANSLATED_MODEL];
const EVERY_FORMAT = [...MODELS, GEMINI_MODEL];
const WEATHER_TOOL = { name: 'get_weather', description: 'The weather in a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' }, unit: { type: 'string' } } } };

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

const micros = (usd: string | null | undefined) => Math.round(Number(usd) * 1e6);
const client = (apiKey: string) => new Anthropic({ apiKey, baseURL: stack.gateway.url, maxRetries: 0 });
const upstreamOf = (model: string) => (model === ANTHROPIC_MODEL ? stack.upstreams.anthropic : model === GEMINI_MODEL ? stack.upstreams.gemini : stack.upstreams.openai);
const lastRequest = (model: string): RecordedRequest => upstreamOf(model).requests.at(-1)!;

/** USD per token as the catalog lists it (`GET /v1/models`), for the expected charge. */
async function pricing(model: string): Promise<Record<'input' | 'output' | 'cache_read' | 'cache_write' | 'cache_write_1h', number | undefined>> {
  const res = await fetch(`${stack.gateway.url}/v1/models`);
  const { data } = (await res.json()) as { data: { id: string; pricing: Record<string, number> }[] };
  return data.find((entry) => entry.id === model)!.pricing as never;
}

/** The catalog price of an answer's Anthropic usage, in micro-dollars, rounded once (D16, D31). */
async function expectedMicros(model: string, usage: Anthropic.Usage | Anthropic.MessageDeltaUsage): Promise<number> {
  const price = await pricing(model);
  const scaled = (perToken: number | undefined) => BigInt(Math.round((perToken ?? 0) * 1e12));
  const input = scaled(price.input);
  const write5m = price.cache_write === undefined ? input : scaled(price.cache_write);
  const write1h = price.cache_write_1h === undefined ? write5m : scaled(price.cache_write_1h);
  const creation = (usage as Anthropic.Usage).cache_creation;
  const oneHour = BigInt(creation?.ephemeral_1h_input_tokens ?? 0);
  const fiveMinutes = BigInt(usage.cache_creation_input_tokens ?? 0) - oneHour;
  const total =
    BigInt(usage.input_tokens ?? 0) * input +
    BigInt(usage.output_tokens) * scaled(price.output) +
    BigInt(usage.cache_read_input_tokens ?? 0) * (price.cache_read === undefined ? input : scaled(price.cache_read)) +
    fiveMinutes * write5m +
    oneHour * write1h;
  return Number((total * 2n + 1_000_000n) / 2_000_000n);
}

/**
 * A prompt whose upstream reports cache reads and both kinds of cache writes, long enough to hold
 * them (a hold bounds the charge by the prompt's bytes, D33, whatever an upstream reports).
 */
const CACHED_PROMPT = `Say hello [reports-prompt-tokens=50] [reports-cache-read=300] [reports-cache-write=200] [reports-cache-write-1h=100] ${'cached '.repeat(600)}`;
/**
 * How each upstream reports those counts: OpenAI does not split writes by lifetime, so all are
 * 5-minute writes; Gemini reports cache reads only.
 */
const CACHE_REPORTED: Record<string, { writes: number; split: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number } }> = {
  [ANTHROPIC_MODEL]: { writes: 300, split: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 100 } },
  [TRANSLATED_MODEL]: { writes: 300, split: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 0 } },
  [GEMINI_MODEL]: { writes: 0, split: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 } },
};

describe('the Anthropic SDK on /v1/messages', () => {
  it.each(EVERY_FORMAT)('%s: a Message whose stated cost is the balance drop and the catalog price of its usage, cache counts included', async (model) => {
    const { apiKey, balance } = await stack.fundedAccount('2');
    const { data: message, response } = await client(apiKey).messages.create({ model, max_tokens: 100, messages: [{ role: 'user', content: CACHED_PROMPT }] }).withResponse();
    expect(message).toMatchObject({ type: 'message', role: 'assistant', model, stop_reason: 'end_turn', content: [{ type: 'text', text: HELLO }] });
    expect(message.usage).toMatchObject({ cache_read_input_tokens: 300, cache_creation_input_tokens: CACHE_REPORTED[model]!.writes, cache_creation: CACHE_REPORTED[model]!.split });
    const cost = micros(response.headers.get('x-service-cost'));
    expect(cost).toBe(await expectedMicros(model, message.usage));
    expect(2_000_000 - micros(await balance())).toBe(cost);
  });

  it.each(EVERY_FORMAT)('%s: streams events the SDK assembles (finalMessage), x_service on the last message_delta', async (model) => {
    const { apiKey, balance } = await stack.fundedAccount('2');
    const stream = client(apiKey).messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: CACHED_PROMPT }] });
    const deltas: Record<string, unknown>[] = [];
    stream.on('streamEvent', (event) => {
      if (event.type === 'message_delta') deltas.push(event as unknown as Record<string, unknown>);
    });
    const message = await stream.finalMessage();
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: HELLO })]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({ cache_read_input_tokens: 300, cache_creation_input_tokens: CACHE_REPORTED[model]!.writes });
    expect(deltas).toHaveLength(1);
    const xService = deltas[0]!.x_service as { cost_usd: string; request_id: string; credits_remaining_usd: string };
    const cost = micros(xService.cost_usd);
    // The SDK's assembled usage lacks `cache_creation` (message_delta does not carry it): the split as reported.
    expect(cost).toBe(await expectedMicros(model, { ...message.usage, cache_creation: CACHE_REPORTED[model]!.split }));
    expect(2_000_000 - micros(await balance())).toBe(cost);
    expect(micros(xService.credits_remaining_usd)).toBe(2_000_000 - cost);

    // The request lookup shows it under its own path.
    const lookup = await fetch(`${stack.gateway.url}/v1/requests/${xService.request_id}`, { headers: { 'x-api-key': apiKey } });
    expect(await lookup.json()).toMatchObject({ path: '/v1/messages', model, streamed: true, cost_usd: xService.cost_usd });
  });

  it.each(EVERY_FORMAT)('%s: a tool use round trip, streamed: the call arrives as tool_use, its result goes back and is answered', async (model) => {
    const { apiKey } = await stack.fundedAccount('2');
    const anthropic = client(apiKey);
    const first = await anthropic.messages.stream({ model, max_tokens: 200, tools: [WEATHER_TOOL], messages: [{ role: 'user', content: 'Weather in Paris? [tool]' }] }).finalMessage();
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content.find((block) => block.type === 'tool_use');
    expect(call).toMatchObject({ type: 'tool_use', name: 'get_weather', input: TOOL_ARGUMENTS });
    const second = await anthropic.messages.create({
      model,
      max_tokens: 200,
      tools: [WEATHER_TOOL],
      messages: [
        { role: 'user', content: 'Weather in Paris? [tool]' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call!.id, content: '21 degrees' }] },
      ],
    });
    expect(second.content).toEqual([expect.objectContaining({ type: 'text', text: HELLO })]);
    const sent = lastRequest(model).body as { messages: Record<string, unknown>[] };
    if (model === ANTHROPIC_MODEL) expect(sent.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call!.id, content: '21 degrees' }] });
    else if (model === GEMINI_MODEL) expect(JSON.stringify(sent)).toContain('"functionResponse":{"name":"get_weather"');
    else {
      expect(sent.messages.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ id: call!.id, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(TOOL_ARGUMENTS) } }] });
      expect(sent.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: call!.id, content: '21 degrees' });
    }
  });

  it('thinking on an Anthropic model: the thinking block and its signature reach the client intact, streamed and not', async () => {
    const { apiKey } = await stack.fundedAccount('2');
    const request = { model: ANTHROPIC_MODEL, max_tokens: 4000, thinking: { type: 'enabled' as const, budget_tokens: 2000 }, messages: [{ role: 'user' as const, content: 'Think, then say hello' }] };
    const streamed = await client(apiKey).messages.stream(request).finalMessage();
    expect(streamed.content).toEqual([
      { type: 'thinking', thinking: 'Let me think about this.', signature: THINKING_SIGNATURE },
      expect.objectContaining({ type: 'text', text: HELLO }),
    ]);
    const whole = await client(apiKey).messages.create(request);
    expect(whole.content[0]).toEqual({ type: 'thinking', thinking: 'Let me think about this.', signature: THINKING_SIGNATURE });
    // And the signed block goes back as it came on the next turn.
    await client(apiKey).messages.create({ ...request, messages: [...request.messages, { role: 'assistant', content: whole.content }, { role: 'user', content: 'Again' }] });
    expect((lastRequest(ANTHROPIC_MODEL).body as { messages: { content: unknown[] }[] }).messages[1]!.content[0]).toEqual(whole.content[0]);
  });

  it('the Anthropic model gets cache_control, thinking, context_management, metadata, anthropic-beta and ?beta=true intact, the model id its own', async () => {
    const { apiKey } = await stack.fundedAccount('2');
    const body = {
      model: 'claude-haiku-4-5',
      max_tokens: 3000,
      system: [{ type: 'text' as const, text: 'Be brief.', cache_control: { type: 'ephemeral' as const, ttl: '1h' as const } }],
      messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Say hello', cache_control: { type: 'ephemeral' as const } }] }],
      thinking: { type: 'enabled' as const, budget_tokens: 1024 },
      context_management: { edits: [{ type: 'clear_thinking_20251015' as const, keep: 'all' as const }] },
      metadata: { user_id: 'user-123' },
      betas: ['context-management-2025-06-27'],
    };
    // Claude Code adds `?beta=true` to its beta calls (this SDK version no longer does).
    const message = await client(apiKey).beta.messages.create(body, { query: { beta: 'true' } });
    expect(message.content.at(-1)).toMatchObject({ type: 'text', text: HELLO });
    const sent = lastRequest(ANTHROPIC_MODEL);
    expect(sent.path).toBe('/v1/messages?beta=true');
    expect(sent.headers['anthropic-beta']).toBe('context-management-2025-06-27');
    expect(sent.headers['x-api-key']).toBe('sk-ant-test');
    const { betas: _, model: __, ...rest } = body;
    expect(sent.body).toEqual({ ...rest, model: expect.stringMatching(/^claude-haiku-4-5/) });
  });

  it('a translated model announces what it leaves out and refuses what would change the answer, as Anthropic errors', async () => {
    const { apiKey } = await stack.fundedAccount('2');
    const res = await fetch(`${stack.gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: TRANSLATED_MODEL,
        max_tokens: 100,
        metadata: { user_id: 'u1' },
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello', cache_control: { type: 'ephemeral' } }] }],
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-service-unsupported-params')?.split(', ').sort()).toEqual(['cache_control', 'metadata', 'thinking']);
    const sent = lastRequest(TRANSLATED_MODEL).body as Record<string, unknown>;
    expect(sent).not.toHaveProperty('metadata');
    expect(sent).not.toHaveProperty('thinking');

    const refused = await client(apiKey)
      .messages.create({ model: TRANSLATED_MODEL, max_tokens: 100, tools: [{ type: 'web_search_20250305', name: 'web_search' }], messages: [{ role: 'user', content: 'hi' }] })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({ type: 'error', error: { code: 'invalid_request', param: 'tools.0' } });
  });

  it.each(MODELS)('%s: a stream the upstream cuts off ends with an Anthropic error event, charged for what was delivered', async (model) => {
    const { apiKey, balance } = await stack.fundedAccount('2');
    const res = await fetch(`${stack.gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Start [die]' }] }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('"text":"Partial"');
    const last = text.trim().split('\n\n').at(-1)!;
    expect(last.startsWith('event: error\n')).toBe(true);
    const data = JSON.parse(last.slice(last.indexOf('data: ') + 6)) as { type: string; error: { type: string }; x_service: { cost_usd: string } };
    expect(data).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(micros(data.x_service.cost_usd)).toBeGreaterThan(0);
    expect(2_000_000 - micros(await balance())).toBe(micros(data.x_service.cost_usd));
  });

  it('bad input is a 400 naming the member, as an Anthropic error', async () => {
    const { apiKey } = await stack.fundedAccount('1');
    const post = (body: unknown) =>
      fetch(`${stack.gateway.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const noCap = await post({ model: ANTHROPIC_MODEL, messages: [{ role: 'user', content: 'hi' }] });
    expect(noCap.status).toBe(400);
    expect(await noCap.json()).toMatchObject({ type: 'error', error: { code: 'invalid_request', param: 'max_tokens' } });
    const nameless = await post({ model: TRANSLATED_MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'tool_use', input: {} }] }] });
    expect(nameless.status).toBe(400);
    expect(await nameless.json()).toMatchObject({ type: 'error', error: { param: 'messages.1.content.0' } });
    // Billed beyond the catalog's prices: refused even where it would pass through (D33).
    const served = stack.upstreams.anthropic.requests.length;
    const fast = await post({ model: ANTHROPIC_MODEL, max_tokens: 10, speed: 'fast', messages: [{ role: 'user', content: 'hi' }] });
    expect(fast.status).toBe(400);
    expect(await fast.json()).toMatchObject({ type: 'error', error: { param: 'speed' } });
    expect(stack.upstreams.anthropic.requests.length).toBe(served);
  });

  it.each(MODELS)("%s: count_tokens is free and never holds (Anthropic's own count, else the gateway's estimate)", async (model) => {
    const { apiKey, balance } = await stack.fundedAccount('1');
    const served = upstreamOf(model).requests.length;
    const count = await client(apiKey).messages.countTokens({ model, messages: [{ role: 'user', content: 'Count me [reports-prompt-tokens=77]' }] });
    if (model === ANTHROPIC_MODEL) {
      expect(count.input_tokens).toBe(77);
      expect(lastRequest(model).path).toBe('/v1/messages/count_tokens');
    } else {
      expect(count.input_tokens).toBeGreaterThan(0);
      expect(upstreamOf(model).requests.length).toBe(served);
    }
    expect(await balance()).toBe('1.000000');
  });

  it('a 402 is an Anthropic error with error.funding; a key not allowed chat is refused; the quote prices the route', async () => {
    const empty = await stack.fundedAccount('0');
    const poor = await client(empty.apiKey)
      .messages.create({ model: ANTHROPIC_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
      .catch((err: unknown) => err);
    expect(poor).toBeInstanceOf(Anthropic.APIError);
    expect((poor as InstanceType<typeof Anthropic.APIError>).status).toBe(402);
    expect((poor as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { code: 'insufficient_credits', funding: { fund_url: expect.any(String) } } });

    const { apiKey } = await stack.fundedAccount('1');
    const minted = await fetch(`${stack.gateway.url}/agent/keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'web-only', allowed_routes: ['web'] }),
    });
    expect(minted.status).toBe(201);
    const sub = (await minted.json()) as { api_key: string };
    for (const call of [
      client(sub.api_key).messages.create({ model: ANTHROPIC_MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
      client(sub.api_key).messages.countTokens({ model: ANTHROPIC_MODEL, messages: [{ role: 'user', content: 'hi' }] }),
    ]) {
      const refused = await call.catch((err: unknown) => err);
      expect((refused as InstanceType<typeof Anthropic.APIError>).status).toBe(403);
      expect((refused as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { code: 'guardrail_blocked' } });
    }

    const quote = await fetch(`${stack.gateway.url}/v1/quote`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: '/v1/messages', body: { model: ANTHROPIC_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] } }),
    });
    expect(quote.status).toBe(200);
    const priced = (await quote.json()) as { worst_case_usd: string; estimated_usd: string };
    expect(micros(priced.worst_case_usd)).toBeGreaterThanOrEqual(micros(priced.estimated_usd));
    expect(micros(priced.worst_case_usd)).toBeGreaterThan(0);
    // The quote refuses what the route would: an Anthropic-defined tool on a translated model.
    const refused = await fetch(`${stack.gateway.url}/v1/quote`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: '/v1/messages', body: { model: TRANSLATED_MODEL, max_tokens: 100, tools: [{ type: 'bash_20250124', name: 'bash' }], messages: [{ role: 'user', content: 'hi' }] } }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { param: 'tools.0' } });
  });
});

describe('the Vercel AI SDK (@ai-sdk/anthropic) on /v1/messages', () => {
  it.each(MODELS)('%s: generateText and streamText', async (model) => {
    const { createAnthropic } = await import('@ai-sdk/anthropic');
    const { generateText, streamText } = await import('ai');
    const { apiKey } = await stack.fundedAccount('2');
    const gateway = createAnthropic({ baseURL: `${stack.gateway.url}/v1`, apiKey });
    const generated = await generateText({ model: gateway(model), prompt: 'Say hello', maxOutputTokens: 100 });
    expect(generated.text).toBe(HELLO);
    expect(generated.usage.outputTokens).toBe(HELLO_WORDS.length);
    const streamed = streamText({ model: gateway(model), prompt: 'Say hello', maxOutputTokens: 100 });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(text).toBe(HELLO);
    expect(await streamed.finishReason).toBe('stop');
  });
});

describe('Claude Code against the gateway', () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'claude-code-'));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  /** `claude -p` with the gateway as its Anthropic API, our key as its key: its JSON result. */
  async function claude(apiKey: string, model: string, prompt: string) {
    const child = spawn(join(process.cwd(), 'node_modules/.bin/claude'), ['-p', prompt, '--output-format', 'json', '--model', model], {
      cwd: home,
      timeout: 120_000,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, HOME: home, ANTHROPIC_BASE_URL: stack.gateway.url, ANTHROPIC_API_KEY: apiKey, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise((resolve) => child.on('close', resolve));
    try {
      return JSON.parse(stdout) as { is_error: boolean; result: string; num_turns: number };
    } catch {
      throw new Error(`claude printed no JSON result: ${stdout} ${stderr}`);
    }
  }

  it.each(['claude-haiku-4-5-20251001', 'claude-sonnet-4-5'])('resolves %s, an id Claude Code sends for its small fast or main model (D32)', async (model) => {
    const { apiKey } = await stack.fundedAccount('1');
    const message = await client(apiKey).messages.create({ model, max_tokens: 50, messages: [{ role: 'user', content: 'Say hello' }] });
    expect(message.model).toMatch(/^anthropic\/claude-/);
    expect(lastRequest(ANTHROPIC_MODEL).body).toMatchObject({ model: expect.stringMatching(/^claude-(haiku|sonnet)-4-5/) });
  });

  it.each([
    ['claude-haiku-4-5', ANTHROPIC_MODEL],
    ['gpt-4o-mini', TRANSLATED_MODEL],
  ])('completes a prompt on %s and is charged for it', { timeout: 150_000 }, async (model, slug) => {
    const { apiKey, balance } = await stack.fundedAccount('5');
    const served = upstreamOf(slug).requests.length;
    const result = await claude(apiKey, model, 'Say hello');
    expect(result).toMatchObject({ is_error: false, result: HELLO });
    const sent = upstreamOf(slug).requests.slice(served);
    expect(sent.length).toBeGreaterThan(0);
    expect(micros(await balance())).toBeLessThan(5_000_000);
  });

  it.each([
    ['claude-haiku-4-5', ANTHROPIC_MODEL],
    ['gpt-4o-mini', TRANSLATED_MODEL],
  ])('on %s, runs the Read tool the model asked for and sends its result back', { timeout: 150_000 }, async (model, slug) => {
    const { apiKey } = await stack.fundedAccount('5');
    const note = join(home, 'note.txt');
    await writeFile(note, 'secret-word-42\n');
    const served = upstreamOf(slug).requests.length;
    const result = await claude(apiKey, model, `Read the note [tool] [read=${note}]`);
    expect(result).toMatchObject({ is_error: false, result: HELLO, num_turns: 2 });
    const [, answer] = upstreamOf(slug).requests.slice(served);
    expect(JSON.stringify(answer!.body)).toContain('secret-word-42');
  });
});
