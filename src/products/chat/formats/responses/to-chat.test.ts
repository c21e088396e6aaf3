import { describe, expect, it } from 'vitest';
import codexRequest from '../../../../../test/fixtures/clients/codex-0.171.0-responses-request.json';
import { GatewayError } from '../../../../errors';
import { ResponsesRequest, type ResponsesBody } from './schema';
import { translate } from './to-chat';

const body = (extra: Record<string, unknown>): ResponsesBody => ResponsesRequest.parse({ model: 'anthropic/claude-haiku-4-5', ...extra });
const paramOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof GatewayError ? err.options.param : String(err);
  }
  return 'no error';
};

describe('Responses to chat', () => {
  it('turns instructions, a string input and the settings into the chat request', () => {
    const { request } = translate(
      body({ instructions: 'Be brief.', input: 'Hi', max_output_tokens: 50, temperature: 0.2, top_p: 0.9, stream: true, reasoning: { effort: 'low' }, text: { verbosity: 'low' } }),
    );
    expect(request).toEqual({
      model: 'anthropic/claude-haiku-4-5',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      stream: true,
      max_tokens: 50,
      temperature: 0.2,
      top_p: 0.9,
      reasoning_effort: 'low',
      verbosity: 'low',
    });
  });

  it('maps message parts, developer turns, function calls and their outputs, and skips reasoning items', () => {
    const { request } = translate(
      body({
        input: [
          { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Use tools.' }] },
          { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }, { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'low' }] },
          { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'xyz' },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
          { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'function_call', call_id: 'call_2', name: 'spawn', namespace: 'agents', arguments: '{}' },
          { type: 'function_call_output', call_id: 'call_1', output: '{"t":18}' },
          { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'ok' }] },
          { role: 'user', content: [{ type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' }] },
        ],
      }),
    );
    expect(request.messages).toEqual([
      { role: 'developer', content: [{ type: 'text', text: 'Use tools.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } }] },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'agents__spawn', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"t":18}' },
      { role: 'tool', tool_call_id: 'call_2', content: 'ok' },
      { role: 'user', content: [{ type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } }] },
    ]);
  });

  it('offers flat function tools and namespaced ones, and sets hosted tools aside', () => {
    const { request, hosted } = translate(
      body({
        input: 'hi',
        tools: [
          { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object' }, strict: true },
          { type: 'namespace', name: 'agents', description: 'Sub-agents', tools: [{ type: 'function', name: 'spawn', parameters: { type: 'object' } }] },
          { type: 'web_search', external_web_access: false },
        ],
        tool_choice: { type: 'function', name: 'get_weather' },
        parallel_tool_calls: false,
      }),
    );
    expect(request.tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object' }, strict: true } },
      { type: 'function', function: { name: 'agents__spawn', parameters: { type: 'object' } } },
    ]);
    expect(request.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
    expect(request.parallel_tool_calls).toBe(false);
    expect(hosted).toEqual(['web_search']);
  });

  it('maps text.format json_schema to response_format', () => {
    const { request } = translate(body({ input: 'hi', text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true } } }));
    expect(request.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } });
  });

  it('carries members with no chat counterpart as they are, for the parameter rules to pass on or announce', () => {
    const { request } = translate(body({ input: 'hi', prompt_cache_key: 'k', client_metadata: { a: '1' }, store: false, include: ['reasoning.encrypted_content'] }));
    expect(request.prompt_cache_key).toBe('k');
    expect(request.client_metadata).toEqual({ a: '1' });
    expect(request).not.toHaveProperty('store');
    expect(request).not.toHaveProperty('include');
  });

  it.each([
    ['an item type only OpenAI serves', { input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input[0].type'],
    ['an image by file id', { input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file_1' }] }] }, 'input[0].content[0].image_url'],
    ['a file that is not a PDF data URI', { input: [{ role: 'user', content: [{ type: 'input_file', file_url: 'https://x/a.pdf' }] }] }, 'input[0].content[0].file_data'],
    ['a malformed function call', { input: [{ type: 'function_call', name: 'f' }] }, 'input[0].call_id'],
    ['a hosted tool forced by tool_choice', { input: 'hi', tool_choice: { type: 'web_search' } }, 'tool_choice'],
    ['an unknown text format', { input: 'hi', text: { format: { type: 'grammar' } } }, 'text.format.type'],
    ['background', { input: 'hi', background: true }, 'background'],
    ['no message at all', { instructions: 'x' }, 'input'],
  ])('refuses %s with a 400 naming it', (_, extra, param) => {
    expect(paramOf(() => translate(body(extra)))).toBe(param);
  });
});

describe('Responses to chat, for a body OpenAI takes intact', () => {
  it('refuses nothing, and sets aside what the chat request cannot hold for the hold to count', () => {
    const hosted = { type: 'web_search' };
    const reference = { type: 'item_reference', id: 'msg_1' };
    const reasoning = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'x'.repeat(100) };
    const { request, uncarried } = translate(body({ input: [{ role: 'user', content: 'hi' }, reference, reasoning], tools: [hosted], tool_choice: { type: 'web_search' }, background: true, include: ['reasoning.encrypted_content'] }), { native: true });
    expect(request.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(uncarried).toEqual(expect.arrayContaining([hosted, reference, reasoning, { type: 'web_search' }, true, ['reasoning.encrypted_content']]));
  });
});

describe("Codex 0.171.0's own request (captured on the wire)", () => {
  const codex = ResponsesRequest.parse({ ...codexRequest, model: 'anthropic/claude-haiku-4-5' });

  it('translates for any model: its functions and its namespace offered, web_search set aside, its developer turns kept', () => {
    const { request, hosted } = translate(codex);
    expect(hosted).toEqual(['web_search']);
    const names = (request.tools ?? []).map((tool) => tool.function.name);
    expect(names).toEqual(expect.arrayContaining(['exec_command', 'update_goal', 'multi_agent_v1__spawn_agent']));
    expect(request.messages.map((message) => message.role)).toEqual(['developer', 'developer', 'user', 'user']);
    expect(request).toMatchObject({ stream: true, tool_choice: 'auto', parallel_tool_calls: true, prompt_cache_key: expect.any(String) });
    expect(request).not.toHaveProperty('include');
    expect(request).not.toHaveProperty('store');
  });

  it('holds, for OpenAI, the bytes of what the chat request lacks: web_search and include', () => {
    const { uncarried } = translate(codex, { native: true });
    expect(uncarried).toEqual([{ type: 'web_search', external_web_access: false }, ['reasoning.encrypted_content']]);
  });
});
