import { z } from '@hono/zod-openapi';
import { textTokens } from '../../products/chat/estimate';
import type { UpstreamRequest } from '../chat/types';

/**
 * The demo model `gateway/echo` as an upstream inside the Worker: it reads the chat-completions
 * body the OpenAI-compatible adapter built and answers as an OpenAI upstream would (JSON, or SSE
 * with a usage frame), so the chat pipeline translates, bills and logs it like any provider.
 * Deterministic: the last user message's text after a fixed prefix, cut to `max_tokens`.
 */

export const ECHO_PREFIX = 'Echo from the demo model gateway/echo: ';

/** What the echo reads of the built body; anything else in it is ignored. */
const EchoBody = z.object({
  model: z.string().optional(),
  stream: z.boolean().optional(),
  max_tokens: z.number().optional(),
  messages: z.array(z.object({ role: z.string(), content: z.unknown() })).default([]),
});
type EchoBody = z.input<typeof EchoBody>;

/** The text of a message's content: a string, or its text parts joined. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: unknown) => (typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string' ? part.text : '')).join('');
}

function messagesOf(body: EchoBody): { role: string; text: string }[] {
  return (body.messages ?? []).map((message) => ({ role: message.role, text: contentText(message.content) }));
}

/** The answer's text and whether `max_tokens` cut it (4 characters a token, as the gateway estimates). */
export function echoText(body: EchoBody): { text: string; finish: 'stop' | 'length' } {
  const lastUser = messagesOf(body).reverse().find((message) => message.role === 'user');
  const full = ECHO_PREFIX + (lastUser?.text ?? '');
  const cap = body.max_tokens !== undefined && body.max_tokens > 0 ? body.max_tokens * 4 : Infinity;
  return full.length > cap ? { text: full.slice(0, cap), finish: 'length' } : { text: full, finish: 'stop' };
}

/** Usage as the gateway estimates text elsewhere: the prompt's message texts and the answer. */
function usageOf(body: EchoBody, text: string) {
  const prompt = messagesOf(body).reduce((sum, message) => sum + textTokens(message.text), 0);
  const completion = textTokens(text);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** Answers one built chat request as an OpenAI upstream would. */
export function answerEcho(request: UpstreamRequest): Response {
  // The adapter built this body from a validated request, so it parses; a body that did not would echo nothing.
  const parsed = EchoBody.safeParse(JSON.parse(request.body));
  const body: EchoBody = parsed.success ? parsed.data : {};
  const model = body.model ?? 'echo';
  const { text, finish } = echoText(body);
  const usage = usageOf(body, text);
  const id = `chatcmpl-echo-${crypto.randomUUID().replaceAll('-', '')}`;
  const created = Math.floor(Date.now() / 1000);
  if (body.stream !== true) {
    const completion = { id, object: 'chat.completion', created, model, choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finish }], usage };
    return Response.json(completion);
  }
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) => ({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] });
  // Word by word, as a real stream arrives in pieces.
  const pieces = text.match(/\S+\s*|\s+/g) ?? [];
  const events = [
    chunk({ role: 'assistant', content: '' }, null),
    ...pieces.map((piece) => chunk({ content: piece }, null)),
    chunk({}, finish),
    { id, object: 'chat.completion.chunk', created, model, choices: [], usage },
  ];
  const sse = events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('') + 'data: [DONE]\n\n';
  return new Response(sse, { headers: { 'Content-Type': 'text/event-stream' } });
}
