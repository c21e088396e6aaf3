import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELLO_WORDS, TOOL_ARGUMENTS } from '../upstreams/scenarios';
import { STACK_ADMIN_TOKEN, startStack, type Stack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ UPSTREAM_TIMEOUT_MS: '3000' });
});
afterAll(async () => {
  await stack?.stop();
});

const HELLO = HELLO_WORDS.join('');
const micros = (usd: string) => Math.round(Number(usd) * 1e6);

async function client(usd = '5') {
  const account = await stack.fundedAccount(usd);
  return { ...account, openai: new OpenAI({ apiKey: account.apiKey, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 }) };
}

/** One model of each wire format the gateway speaks. */
const FORMATS = [
  ['OpenAI (group 1)', 'openai/gpt-4o-mini'],
  ['OpenAI-compatible Groq (group 2)', 'meta/llama-3.3-70b-instruct'],
  ['Anthropic Messages (group 3)', 'anthropic/claude-haiku-4-5'],
  ['Gemini generateContent (group 3)', 'google/gemini-2.5-flash-lite'],
] as const;

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] },
  },
};

const UPSTREAM_OF = {
  'openai/gpt-4o-mini': 'openai',
  'meta/llama-3.3-70b-instruct': 'groq',
  'anthropic/claude-haiku-4-5': 'anthropic',
  'google/gemini-2.5-flash-lite': 'gemini',
} as const;
type UpstreamName = (typeof UPSTREAM_OF)[keyof typeof UPSTREAM_OF];

/** The assistant turn of a recorded upstream body, in that provider's own format. */
function assistantTurnSent(upstream: UpstreamName, body: unknown): unknown {
  const { messages, contents } = body as { messages?: { role: string }[]; contents?: { role: string }[] };
  if (upstream === 'gemini') return contents?.find((turn) => turn.role === 'model');
  return messages?.find((turn) => turn.role === 'assistant');
}

/** What each documented format expects for the tool_calls turn: never an empty text block or part. */
function expectedAssistantTurn(upstream: UpstreamName, content: string | null | readonly { type: string; text: string }[] | undefined): unknown {
  const call = { id: 'call_paris', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
  const text = typeof content === 'object' && content !== null ? 'Let me check.' : '';
  switch (upstream) {
    case 'openai':
    case 'groq':
      return { role: 'assistant', ...(content === undefined ? {} : { content }), tool_calls: [call] };
    case 'anthropic':
      return {
        role: 'assistant',
        content: [...(text ? [{ type: 'text', text }] : []), { type: 'tool_use', id: 'call_paris', name: 'get_weather', input: { city: 'Paris' } }],
      };
    case 'gemini':
      return { role: 'model', parts: [...(text ? [{ text }] : []), expect.objectContaining({ functionCall: { name: 'get_weather', args: { city: 'Paris' } } })] };
  }
}

describe.each(FORMATS)('chat through %s', (_, model) => {
  it('answers a plain request with the cost in headers, equal to the balance drop', async () => {
    const { openai, balance } = await client();
    const before = micros(await balance());
    const { data, response } = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'Say hello' }] }).withResponse();
    expect(data.choices[0]?.message.content).toBe(HELLO);
    expect(data.choices[0]?.finish_reason).toBe('stop');
    expect(data.model).toBe(model);
    expect(data.usage?.completion_tokens).toBeGreaterThan(0);
    const cost = response.headers.get('x-service-cost')!;
    expect(cost).toMatch(/^\d+\.\d{6}$/);
    expect(micros(cost)).toBeGreaterThan(0);
    expect(response.headers.get('x-service-request-id')).toMatch(/^req_/);
    const after = await balance();
    expect(response.headers.get('x-service-credits-remaining')).toBe(after);
    expect(before - micros(after)).toBe(micros(cost));
  });

  it('streams chunks and ends with the usage frame, whose cost equals the balance drop', async () => {
    const { openai, balance } = await client();
    const before = micros(await balance());
    const stream = await openai.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'Say hello' }] });
    let text = '';
    const frames: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) {
      frames.push(chunk);
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe(HELLO);
    expect(frames.some((chunk) => chunk.choices[0]?.finish_reason === 'stop')).toBe(true);
    const final = frames.at(-1) as OpenAI.ChatCompletionChunk & { x_service: Record<string, string> };
    expect(final.choices).toEqual([]);
    expect(final.usage?.completion_tokens).toBe(HELLO_WORDS.length);
    expect(final.x_service).toEqual({
      request_id: expect.stringMatching(/^req_/),
      cost_usd: expect.stringMatching(/^\d+\.\d{6}$/),
      credits_remaining_usd: await balance(),
    });
    expect(before - micros(await balance())).toBe(micros(final.x_service.cost_usd!));
  });

  it('round-trips a tool call', async () => {
    const { openai } = await client();
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris? [tool]' }];
    const first = await openai.chat.completions.create({ model, messages, tools: [weatherTool] });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' && call.function.name).toBe('get_weather');
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual(TOOL_ARGUMENTS);

    messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call!.id, content: '{"temperature": 18}' });
    const second = await openai.chat.completions.create({ model, messages, tools: [weatherTool] });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.content).toBe(HELLO);
    // Gemini gets back the very signature it issued, not the placeholder for foreign calls.
    if (UPSTREAM_OF[model] === 'gemini') {
      expect(JSON.stringify(assistantTurnSent('gemini', stack.upstreams.gemini.requests.at(-1)!.body))).toMatch(/"thoughtSignature":"[A-Za-z0-9+/]{20,}={0,2}"/);
    }
  });

  // #9: an assistant turn that only calls tools may carry no content at all (OpenAI's format).
  it.each([
    ['absent', {}],
    ['null', { content: null }],
    ['""', { content: '' }],
    ['an array of text parts', { content: [{ type: 'text', text: 'Let me check.' }] }],
  ] as const)('takes an assistant tool_calls turn whose content is %s, streamed and not', async (_, content) => {
    const { apiKey } = await client();
    const upstream = stack.upstreams[UPSTREAM_OF[model]];
    for (const stream of [false, true]) {
      const res = await fetch(`${stack.gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          model,
          stream,
          tools: [weatherTool],
          messages: [
            { role: 'user', content: 'Weather in Paris?' },
            { role: 'assistant', ...content, tool_calls: [{ id: 'call_paris', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
            { role: 'tool', tool_call_id: 'call_paris', content: '{"temperature": 18}' },
          ],
        }),
      });
      expect(res.status, `stream: ${stream}: ${res.status === 200 ? "" : await res.clone().text()}`).toBe(200);
      expect(await res.text()).toContain(stream ? 'data: [DONE]' : HELLO_WORDS[0]);
      expect(assistantTurnSent(UPSTREAM_OF[model], upstream.requests.at(-1)!.body), `stream: ${stream}`).toEqual(
        expectedAssistantTurn(UPSTREAM_OF[model], 'content' in content ? content.content : undefined),
      );
    }
  });

  it('streams a tool call as argument deltas', async () => {
    const { openai } = await client();
    const stream = await openai.chat.completions.create({ model, stream: true, tools: [weatherTool], messages: [{ role: 'user', content: '[tool]' }] });
    let args = '';
    let name = '';
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        expect(call.index).toBe(0);
        name += call.function?.name ?? '';
        args += call.function?.arguments ?? '';
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(name).toBe('get_weather');
    expect(JSON.parse(args)).toEqual(TOOL_ARGUMENTS);
    expect(finish).toBe('tool_calls');
  });

  it('ends a stream whose upstream dies with an error event, then [DONE]', async () => {
    const { apiKey } = await client();
    const res = await fetch(`${stack.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: '[die]' }] }),
    });
    const frames = (await res.text()).split('\n\n').filter(Boolean);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const error = JSON.parse(frames.at(-2)!.slice('data: '.length));
    expect(error.error).toMatchObject({ code: 'provider_error', type: 'api_error' });
    expect(frames.some((f) => f.includes('Partial'))).toBe(true);
  });
});

describe('chat billing and limits', () => {
  it('answers 402 on an empty balance, with nothing held', async () => {
    const { openai, balance } = await client('0');
    const error = await openai.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).catch((err) => err);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBe(402);
    expect(error.error).toMatchObject({ code: 'insufficient_credits', type: 'insufficient_credits_error' });
    expect(await balance()).toBe('0.000000');
  });

  it('names the output tokens the balance covers when max_tokens is too high', async () => {
    const { openai } = await client('0.001');
    const error = await openai.chat.completions
      .create({ model: 'openai/gpt-4o-mini', max_tokens: 16_000, messages: [{ role: 'user', content: 'hi' }] })
      .catch((err) => err);
    expect(error.status).toBe(402);
    expect(error.message).toMatch(/covers about \d+ output tokens/);
  });

  it("refuses a max_tokens above the model's own cap with a 400 naming it, before any money moves", async () => {
    const { openai, balance } = await client('1');
    for (const max of [16_385, Number.MAX_SAFE_INTEGER]) {
      const error = await openai.chat.completions
        .create({ model: 'openai/gpt-4o-mini', max_tokens: max, messages: [{ role: 'user', content: 'hi' }] })
        .catch((err) => err);
      expect(error.status, String(max)).toBe(400);
      expect(error.error, String(max)).toMatchObject({ code: 'invalid_request', param: 'max_tokens' });
      expect(error.message).toContain('at most 16384 output tokens');
    }
    const sent = await openai.chat.completions.create({ model: 'openai/gpt-4o-mini', max_completion_tokens: 16_384, messages: [{ role: 'user', content: 'hi' }] });
    expect(sent.choices).toHaveLength(1);
    expect(await balance()).not.toBe('1.000000');
  });

  it('lowers the upstream cap to what the balance covers when max_tokens is omitted', async () => {
    const { openai } = await client('0.001');
    await openai.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const sent = stack.upstreams.openai.requests.at(-1)!.body as Record<string, number>;
    // $0.001 at $0.60 per million output tokens covers about 1,666 tokens, far below the model's 16,384.
    expect(sent.max_completion_tokens).toBeGreaterThan(1_000);
    expect(sent.max_completion_tokens).toBeLessThan(1_700);
  });

  it('refuses n of 9 with 400 naming n', async () => {
    const { openai } = await client();
    const error = await openai.chat.completions.create({ model: 'openai/gpt-4o-mini', n: 9, messages: [{ role: 'user', content: 'hi' }] }).catch((err) => err);
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ code: 'invalid_request', param: 'n' });
  });

  it('refuses response_format to a group-3 model with 400 naming it', async () => {
    const { openai } = await client();
    const error = await openai.chat.completions
      .create({ model: 'anthropic/claude-haiku-4-5', response_format: { type: 'json_object' }, messages: [{ role: 'user', content: 'hi' }] })
      .catch((err) => err);
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ code: 'invalid_request', param: 'response_format' });
  });

  it('runs seed on a group-3 model and lists it as not applied', async () => {
    const { openai } = await client();
    const { data, response } = await openai.chat.completions
      .create({ model: 'google/gemini-2.5-flash-lite', seed: 42, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe(HELLO);
    expect(response.headers.get('x-service-unsupported-params')).toBe('seed');
    expect(JSON.stringify(stack.upstreams.gemini.requests.at(-1)!.body)).not.toContain('42');
  });

  it('lists an unknown member whose name no header can carry escaped, and answers 200, not a 500 after the charge', async () => {
    const { openai, balance } = await client();
    const odd = { 'a\nb': 1, 'é': 2 } as Record<string, number>;
    const { data, response } = await openai.chat.completions
      .create({ model: 'google/gemini-2.5-flash-lite', messages: [{ role: 'user', content: 'hi' }], ...odd })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe(HELLO);
    expect(response.headers.get('x-service-unsupported-params')).toBe('a\\u000ab, \\u00e9');
    const micros = (usd: string | null) => Math.round(Number(usd) * 1e6);
    expect(micros(await balance())).toBe(5_000_000 - micros(response.headers.get('x-service-cost')));
  });

  it('applies n on group 1', async () => {
    const { openai } = await client();
    const data = await openai.chat.completions.create({ model: 'openai/gpt-4o-mini', n: 2, messages: [{ role: 'user', content: 'hi' }] });
    expect(data.choices).toHaveLength(2);
  });

  it('charges a client that aborts mid-stream only for what was generated (D6)', async () => {
    const { openai, balance, apiKey } = await client();
    const before = micros(await balance());
    const controller = new AbortController();
    const stream = await openai.chat.completions.create(
      { model: 'openai/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: '[slow]' }] },
      { signal: controller.signal },
    );
    let received = 0;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) received++;
      if (received === 5) {
        controller.abort();
        break;
      }
    }
    // Settlement happens after the disconnect; wait for it.
    let spent = 0;
    for (let i = 0; i < 50 && spent === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      spent = before - micros(await balance());
    }
    // gpt-4o-mini: $0.15 input, $0.60 output per million. 200 words would cost ~120 µ$ of output;
    // a handful of words plus the prompt costs a few micro-dollars.
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThan(40);
    // Settled: nothing is left held for the abandoned request.
    const account = await fetch(`${stack.gateway.url}/agent/account`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(await account.json()).toMatchObject({ held_usd: '0.000000' });
  });

  it('retries a 5xx on the next route that serves the model', async () => {
    const { openai } = await client();
    const groqBefore = stack.upstreams.groq.requests.length;
    const data = await openai.chat.completions.create({ model: 'meta/llama-3.3-70b-instruct', messages: [{ role: 'user', content: '[500]' }] });
    expect(data.choices[0]?.message.content).toBe(HELLO);
    expect(stack.upstreams.groq.requests.length).toBe(groqBefore + 1);
    expect(stack.upstreams.together.requests.at(-1)!.body).toMatchObject({ model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo' });
  });

  it.each([
    ['a 5xx', 'anthropic/claude-haiku-4-5', '[500]', 502, 'provider_error'],
    ['a 429', 'google/gemini-2.5-flash-lite', '[429]', 503, 'provider_unavailable'],
    ['a timeout', 'openai/gpt-4o-mini', '[slow]', 502, 'provider_error'],
    ['a refused connection', 'xai/grok-3-mini', 'hi', 503, 'provider_unavailable'],
  ])('answers %s from the only route with an error and charges nothing', async (_, model, prompt, status, code) => {
    const { openai, balance } = await client();
    const error = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: prompt }] }).catch((err) => err);
    expect(error.status).toBe(status);
    expect(error.error).toMatchObject({ code });
    expect(await balance()).toBe('5.000000');
  });
});

describe('key guardrails on chat', () => {
  async function keyWith(guardrails: Record<string, unknown>) {
    const { accountId } = await client();
    const res = await fetch(`${stack.gateway.url}/admin/accounts/${accountId}/keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${STACK_ADMIN_TOKEN}` },
      body: JSON.stringify(guardrails),
    });
    const { api_key } = (await res.json()) as { api_key: string };
    return new OpenAI({ apiKey: api_key, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 });
  }

  it('refuses a model outside the key allowlist with 403 model_not_allowed', async () => {
    const openai = await keyWith({ allowed_models: ['openai/gpt-4o-mini'] });
    const error = await openai.chat.completions.create({ model: 'anthropic/claude-haiku-4-5', messages: [{ role: 'user', content: 'hi' }] }).catch((err) => err);
    expect(error.status).toBe(403);
    expect(error.error).toMatchObject({ code: 'model_not_allowed', type: 'authorization_error' });
    const allowed = await openai.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(allowed.choices[0]?.message.content).toBe(HELLO);
  });

  it('answers 429 daily_spend_limit_exceeded with Retry-After once the daily limit is spent', async () => {
    const openai = await keyWith({ daily_limit_usd: '0.000010' });
    const error = await openai.chat.completions.create({ model: 'openai/gpt-4o-mini', max_tokens: 1000, messages: [{ role: 'user', content: 'hi' }] }).catch((err) => err);
    expect(error.status).toBe(429);
    expect(error.error).toMatchObject({ code: 'daily_spend_limit_exceeded', type: 'rate_limit_error' });
    expect(Number(error.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('sub-keys through the openai SDK (D27)', () => {
  async function agentCall(apiKey: string, path: string, init: { method?: string; body?: unknown } = {}) {
    const res = await fetch(`${stack.gateway.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { Authorization: `Bearer ${apiKey}`, ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { error?: { code: string } } };
  }
  const sdk = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 });
  const ask = (openai: OpenAI, model = 'openai/gpt-4o-mini') => openai.chat.completions.create({ model, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] });

  it('mints a chat-only sub-key that chats, is refused other models, routes, minting and its limit, and is revoked at once', async () => {
    const { apiKey } = await client();
    const minted = await agentCall(apiKey, '/agent/keys', { body: { name: 'sub-agent', limit_usd: '0.005', allowed_models: ['openai/gpt-4o-mini'], allowed_routes: ['chat'] } });
    expect(minted.status).toBe(201);
    const sub = minted.body as { api_key: string; id: string };
    const openai = sdk(sub.api_key);

    const answer = await ask(openai);
    expect(answer.choices[0]?.message.content).toBe(HELLO);
    const listed = await agentCall(apiKey, '/agent/keys');
    const entry = (listed.body.data as { id: string; spent_usd: string }[]).find((key) => key.id === sub.id);
    expect(micros(entry!.spent_usd)).toBeGreaterThan(0);

    const model = await ask(openai, 'anthropic/claude-haiku-4-5').catch((err) => err);
    expect(model.status).toBe(403);
    expect(model.error).toMatchObject({ code: 'model_not_allowed' });
    const scrape = await agentCall(sub.api_key, '/v1/scrape', { body: { url: 'https://example.com/' } });
    expect(scrape).toMatchObject({ status: 403, body: { error: { code: 'guardrail_blocked' } } });
    expect(await agentCall(sub.api_key, '/agent/keys', { body: { name: 'grandchild' } })).toMatchObject({ status: 403, body: { error: { code: 'guardrail_blocked' } } });
    expect(await agentCall(sub.api_key, `/agent/keys/${sub.id}`, { method: 'DELETE' })).toMatchObject({ status: 403, body: { error: { code: 'guardrail_blocked' } } });

    const big = await openai.chat.completions.create({ model: 'openai/gpt-4o-mini', max_tokens: 16_000, messages: [{ role: 'user', content: 'hi' }] }).catch((err) => err);
    expect(big.status).toBe(429);
    expect(big.error).toMatchObject({ code: 'credit_limit_exceeded' });

    expect((await agentCall(apiKey, `/agent/keys/${sub.id}`, { method: 'DELETE' })).status).toBe(200);
    const revoked = await ask(openai).catch((err) => err);
    expect(revoked.status).toBe(401);
    expect(revoked.error).toMatchObject({ code: 'api_key_revoked' });
  });

  it("answers an expired sub-key with 401 and another account's key id with 404", async () => {
    const { apiKey } = await client();
    const other = await client();
    const short = await agentCall(apiKey, '/agent/keys', { body: { name: 'one-second', expires_in: 1 } });
    const theirs = await agentCall(other.apiKey, '/agent/keys', { body: { name: 'theirs' } });
    expect(await agentCall(apiKey, `/agent/keys/${(theirs.body as { id: string }).id}`, { method: 'DELETE' })).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(short.body.expires_at as string) - Date.now()) + 100));
    const expired = await ask(sdk(short.body.api_key as string)).catch((err) => err);
    expect(expired.status).toBe(401);
    expect(expired.error).toMatchObject({ code: 'api_key_expired' });
  });
});

describe('multimodal input', () => {
  const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  const PDF = `data:application/pdf;base64,${btoa('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF')}`;

  it.each([
    ['anthropic/claude-haiku-4-5', 'anthropic', (body: string) => body.includes('"type":"base64"') && body.includes('"media_type":"image/png"')],
    ['google/gemini-2.5-flash-lite', 'gemini', (body: string) => body.includes('"inlineData"') && body.includes('"mimeType":"image/png"')],
    ['openai/gpt-4o-mini', 'openai', (body: string) => body.includes('"image_url"')],
  ] as const)('sends an image to %s in its upstream format', async (model, upstream, check) => {
    const { openai } = await client();
    const data = await openai.chat.completions.create({
      model,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: PNG } }] }],
    });
    expect(data.choices[0]?.message.content).toBe(HELLO);
    expect(check(JSON.stringify(stack.upstreams[upstream].requests.at(-1)!.body))).toBe(true);
  });

  it('refuses an image URL on a private address before fetching it for Gemini, free', async () => {
    const { openai, balance } = await client();
    const error = await openai.chat.completions
      .create({
        model: 'google/gemini-2.5-flash-lite',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://169.254.169.254/latest/meta-data/x.png' } }] }],
      })
      .catch((err) => err);
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ code: 'invalid_request', param: 'messages' });
    expect(await balance()).toBe('5.000000');
  });

  it('sends a PDF to a model that reads PDFs', async () => {
    const { openai } = await client();
    const data = await openai.chat.completions.create({
      model: 'anthropic/claude-haiku-4-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarise' }, { type: 'file', file: { filename: 'a.pdf', file_data: PDF } }] }],
    });
    expect(data.choices[0]?.message.content).toBe(HELLO);
    expect(JSON.stringify(stack.upstreams.anthropic.requests.at(-1)!.body)).toContain('"type":"document"');
  });

  it('refuses a PDF to a model without PDF support with 400 unsupported_content', async () => {
    const { openai, balance } = await client();
    const error = await openai.chat.completions
      .create({
        model: 'meta/llama-3.3-70b-instruct',
        messages: [{ role: 'user', content: [{ type: 'file', file: { filename: 'a.pdf', file_data: PDF } }] }],
      })
      .catch((err) => err);
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ code: 'unsupported_content', param: 'messages.0.content.0' });
    expect(await balance()).toBe('5.000000');
  });

  it('refuses a PDF whose data is not base64 with a 400 naming it, not a 500', async () => {
    const { openai, balance } = await client();
    const error = await openai.chat.completions
      .create({
        model: 'anthropic/claude-haiku-4-5',
        messages: [{ role: 'user', content: [{ type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,@@@@' } }] }],
      })
      .catch((err) => err);
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ code: 'invalid_request', param: 'messages.0.content.0.file.file_data' });
    expect(await balance()).toBe('5.000000');
  });
});
