/**
 * OpenAI's Responses API as the OpenAI simulator serves it at `POST /v1/responses`
 * (https://platform.openai.com/docs/api-reference/responses), checked against openai-node's types
 * (`resources/responses/responses.d.ts`) and its `responses.stream()` helper: the Response object,
 * and streamed `response.created`, `response.in_progress`, `response.output_item.added`,
 * `response.content_part.added`, `response.output_text.delta` / `.done`,
 * `response.content_part.done`, `response.output_item.done`,
 * `response.function_call_arguments.delta` / `.done` and `response.completed`, each with its
 * `sequence_number`. The scenarios are the chat simulators' (`[tool]`, `[die]`, `[500]`, ...). A
 * request with `reasoning` or with `include: ["reasoning.encrypted_content"]` gets a reasoning
 * item first (its `encrypted_content` only when included); usage follows the `[reports-*=N]` tags.
 * OpenAI keeps `previous_response_id` chains itself, but the gateway must send the whole history:
 * here any `previous_response_id` is a 400, as OpenAI answers an id it does not have.
 */
import type { ServerResponse } from 'node:http';
import { DIE_AFTER_WORDS, HELLO_WORDS, promptTokensOf, reportedUsage, scenarioOf, SLOW_CHUNK_MS, SLOW_WORDS, TOOL_ARGUMENTS } from './scenarios';
import { isJson, sendJson, sleep, startSse, type Json, type RecordedRequest } from './server';

/** What the simulator puts in a reasoning item's `encrypted_content`: opaque, as OpenAI's is. */
export const SIMULATED_ENCRYPTED_REASONING = 'gAAAAABsimulated-encrypted-reasoning==';

let served = 0;

function lastUserText(body: Json): string {
  if (typeof body.input === 'string') return body.input;
  const items = Array.isArray(body.input) ? body.input.filter(isJson) : [];
  const last = items.filter((item) => item.role === 'user').at(-1);
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return Array.isArray(last.content) ? last.content.filter(isJson).map((part) => (typeof part.text === 'string' ? part.text : '')).join(' ') : '';
}

function firstFunctionName(body: Json): string | undefined {
  const tool = Array.isArray(body.tools) ? body.tools.filter(isJson).find((t) => t.type === 'function') : undefined;
  return typeof tool?.name === 'string' ? tool.name : undefined;
}

const errorBody = (message: string, type: string, code: string | null, param: string | null = null) => ({ error: { message, type, param, code } });

export async function serveResponses(request: RecordedRequest, res: ServerResponse): Promise<void> {
  const body = isJson(request.body) ? request.body : {};
  if (typeof body.previous_response_id === 'string') {
    return sendJson(res, 400, errorBody(`Previous response with id '${body.previous_response_id}' not found.`, 'invalid_request_error', 'previous_response_not_found', 'previous_response_id'));
  }
  served += 1;
  const n = served;
  const text = lastUserText(body);
  const reported = reportedUsage(text);
  const items = Array.isArray(body.input) ? body.input.filter(isJson) : [];
  const answeringTool = items.at(-1)?.type === 'function_call_output';
  const scenario = answeringTool ? 'hello' : scenarioOf(text, 'openai');
  const model = typeof body.model === 'string' ? body.model : 'unknown';
  const include = Array.isArray(body.include) ? body.include : [];
  const reasons = body.reasoning !== undefined || include.includes('reasoning.encrypted_content');
  const inputTokens = reported.prompt ?? promptTokensOf(body);

  if (scenario === 'error402') return sendJson(res, 402, errorBody('You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', 'insufficient_quota'));
  if (scenario === 'error401') return sendJson(res, 401, errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
  if (scenario === 'error500') return sendJson(res, 500, errorBody('The server had an error while processing your request. Sorry about that!', 'server_error', null));
  if (scenario === 'error429') return sendJson(res, 429, errorBody(`Rate limit reached for ${model}.`, 'requests', 'rate_limit_exceeded'), { 'retry-after': '1' });
  if (scenario === 'die' && body.stream !== true) return void res.socket?.destroy();

  const toolName = scenario === 'tool' ? firstFunctionName(body) : undefined;
  const words = scenario === 'slow' ? SLOW_WORDS : scenario === 'die' ? DIE_AFTER_WORDS : HELLO_WORDS;
  const argumentsText = JSON.stringify(TOOL_ARGUMENTS);
  const outputTokens = (toolName ? Math.ceil(argumentsText.length / 8) : words.length) + reported.reasoning;
  const reasoningItem = { id: `rs_sim_${n}`, type: 'reasoning', summary: [], ...(include.includes('reasoning.encrypted_content') && { encrypted_content: SIMULATED_ENCRYPTED_REASONING }) };
  const message = (status: string, content: Json[]) => ({ id: `msg_sim_${n}`, type: 'message', status, role: 'assistant', content });
  const textPart = (value: string) => ({ type: 'output_text', text: value, annotations: [], logprobs: [] });
  const call = (status: string, args: string) => ({ id: `fc_sim_${n}`, type: 'function_call', status, arguments: args, call_id: `call_sim_${n}`, name: toolName });
  const output = [...(reasons ? [reasoningItem] : []), toolName ? call('completed', argumentsText) : message('completed', [textPart(words.join(''))])];
  const usage = {
    input_tokens: inputTokens + reported.cacheRead,
    input_tokens_details: { cached_tokens: reported.cacheRead },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reported.reasoning },
    total_tokens: inputTokens + reported.cacheRead + outputTokens,
  };
  const response = (status: string, out: unknown[], withUsage: boolean) => ({
    id: `resp_sim${Date.now().toString(36)}${n}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: `${model}-2025-01-01`,
    output: out,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null, ...(isJson(body.reasoning) ? body.reasoning : {}) },
    store: body.store !== false,
    temperature: body.temperature ?? 1,
    text: body.text ?? { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: 'disabled',
    usage: withUsage ? usage : null,
    user: null,
    metadata: body.metadata ?? {},
  });
  const final = response('completed', output, true);

  if (body.stream !== true) return sendJson(res, 200, final);

  const sse = startSse(res);
  let closed = false;
  res.on('close', () => (closed = true));
  let sequence = 0;
  const emit = (type: string, data: Json) => sse.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data, sequence_number: sequence++ })}\n\n`);
  const started = { ...final, status: 'in_progress', output: [], usage: null };
  emit('response.created', { response: started });
  emit('response.in_progress', { response: started });
  let index = 0;
  if (reasons) {
    emit('response.output_item.added', { output_index: index, item: { id: reasoningItem.id, type: 'reasoning', summary: [] } });
    emit('response.output_item.done', { output_index: index, item: reasoningItem });
    index++;
  }
  if (toolName) {
    const id = `fc_sim_${n}`;
    emit('response.output_item.added', { output_index: index, item: call('in_progress', '') });
    for (let i = 0; i < argumentsText.length; i += 8) emit('response.function_call_arguments.delta', { item_id: id, output_index: index, delta: argumentsText.slice(i, i + 8) });
    emit('response.function_call_arguments.done', { item_id: id, output_index: index, arguments: argumentsText });
    emit('response.output_item.done', { output_index: index, item: call('completed', argumentsText) });
  } else {
    const id = `msg_sim_${n}`;
    const where = { item_id: id, output_index: index, content_index: 0 };
    emit('response.output_item.added', { output_index: index, item: message('in_progress', []) });
    emit('response.content_part.added', { ...where, part: textPart('') });
    for (const word of words) {
      if (closed) return;
      if (scenario === 'slow') await sleep(SLOW_CHUNK_MS);
      emit('response.output_text.delta', { ...where, delta: word, logprobs: [] });
    }
    if (scenario === 'die') {
      await sleep(50);
      return sse.die();
    }
    emit('response.output_text.done', { ...where, text: words.join(''), logprobs: [] });
    emit('response.content_part.done', { ...where, part: textPart(words.join('')) });
    emit('response.output_item.done', { output_index: index, item: message('completed', [textPart(words.join(''))]) });
  }
  emit('response.completed', { response: final });
  sse.end();
}
