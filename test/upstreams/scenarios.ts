/**
 * Every chat simulator behaves the same way for the same prompt, so one end-to-end test can run
 * against each wire format. The scenario is chosen by a tag in the last user message's text.
 */
export type Scenario = 'hello' | 'tool' | 'die' | 'error500' | 'error429' | 'error402' | 'error401' | 'slow' | 'silent' | 'hang' | 'huge-line';

const FAILURES: Record<string, Scenario> = { '401': 'error401', '402': 'error402', '429': 'error429', '500': 'error500', hang: 'hang' };

/**
 * `[402]` (the provider's own account ran dry) and `[401]` (its key was revoked) fail every
 * simulator; `[fail-<provider>]` fails only the simulator playing that provider (`openai`,
 * `anthropic`, `gemini`, or an OpenAI-shaped one's `name`) with a 500, `[fail-<provider>=402]`
 * with that status (401, 402, 429 or 500), `[fail-<provider>=hang]` hangs it (`hang`: the OpenAI-shaped
 * simulators), so a test can fail over from one provider to another.
 */
export function scenarioOf(lastUserText: string, provider?: string): Scenario {
  if (provider !== undefined) {
    const failing = new RegExp(`\\[fail-${provider}(?:=(\\d{3}|hang))?\\]`).exec(lastUserText);
    if (failing) return FAILURES[failing[1] ?? '500'] ?? 'error500';
  }
  if (lastUserText.includes('[402]')) return 'error402';
  if (lastUserText.includes('[401]')) return 'error401';
  if (lastUserText.includes('[tool]')) return 'tool';
  if (lastUserText.includes('[die]')) return 'die';
  if (lastUserText.includes('[500]')) return 'error500';
  if (lastUserText.includes('[429]')) return 'error429';
  if (lastUserText.includes('[slow]')) return 'slow';
  if (lastUserText.includes('[silent]')) return 'silent';
  if (lastUserText.includes('[hang]')) return 'hang';
  if (lastUserText.includes('[huge-line]')) return 'huge-line';
  return 'hello';
}

/** `[retry-after=VALUE]` (seconds or an HTTP date): the `Retry-After` a 429 from the OpenAI-shaped simulator carries (default `1`). */
export function retryAfterOf(lastUserText: string): string | undefined {
  return /\[retry-after=([^\]]+)\]/.exec(lastUserText)?.[1];
}

/** The answer's words: `hello` says these; `slow` says 200 numbered words, one per 50 ms chunk. */
export const HELLO_WORDS = ['Hello', ' from', ' the', ' simulator', '!'];
export const SLOW_WORDS = Array.from({ length: 200 }, (_, i) => ` w${i}`);
export const SLOW_CHUNK_MS = 50;

/**
 * `silent` answers its headers (and, streamed, the role chunk), then sends nothing; `hang` sends
 * not even headers. Either answers in full after this long, unless the caller hangs up first, so
 * a gateway that waits it out is charged for an answer its client may never have received.
 */
export const SILENCE_MS = 10_000;

/** `huge-line` streams one `data:` line of this many bytes, without a line end, in 64 KiB writes. */
export const HUGE_LINE_BYTES = 16 * 1024 * 1024;

/** `die` sends these chunks, then drops the connection without a terminator. */
export const DIE_AFTER_WORDS = ['Partial', ' answer'];

/** The tool call every simulator makes for `tool`: the first tool offered, these arguments. */
export const TOOL_ARGUMENTS = { city: 'Paris', unit: 'celsius' };

/**
 * The tool call a `[tool]` prompt gets: `[read=PATH]` with a `Read` tool offered (Claude Code's)
 * reads that file, so an agent CLI runs a tool it has with valid input; otherwise the first tool
 * offered, with TOOL_ARGUMENTS.
 */
export function toolCallOf(toolNames: string[], lastUserText: string): { name: string; input: Record<string, unknown> } | undefined {
  const read = /\[read=([^\]]+)\]/.exec(lastUserText);
  if (read?.[1] && toolNames.includes('Read')) return { name: 'Read', input: { file_path: read[1] } };
  const [first] = toolNames;
  return first === undefined ? undefined : { name: first, input: TOOL_ARGUMENTS };
}

/** Deterministic usage: prompt tokens from the request size, one output token per word sent. */
export function promptTokensOf(requestBody: unknown): number {
  return 10 + Math.ceil(JSON.stringify(requestBody).length / 4);
}

/**
 * Media simulators (fal, Replicate, OpenAI videos): a prompt with `[503-once]` gets its first
 * status poll answered 503 with no failure report (transport trouble), then goes on as usual.
 */
export const TROUBLE_ONCE = '[503-once]';

/** Whether this status poll of a request with `prompt` is the one answered 503 (`TROUBLE_ONCE`). */
export function troubleOnce(prompt: unknown, answered: Set<string>, id: string): boolean {
  if (!String(prompt ?? '').includes(TROUBLE_ONCE) || answered.has(id)) return false;
  answered.add(id);
  return true;
}

/**
 * Usage a prompt's tags ask a chat simulator to report, each in its provider's own fields:
 * `[reports-prompt-tokens=N]` uncached prompt tokens (instead of the request size),
 * `[reports-cache-read=N]`, `[reports-cache-write=N]` (5-minute writes), `[reports-cache-write-1h=N]`
 * and `[reports-reasoning=N]` (reasoning tokens, on top of the answer's words).
 */
export interface ReportedUsage {
  prompt: number | undefined;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  reasoning: number;
}

export function reportedUsage(text: string): ReportedUsage {
  // `1e308` is read as a number, as a lying upstream may send it.
  const tag = (name: string) => {
    const match = new RegExp(`\\[reports-${name}=([0-9.e+]+)\\]`).exec(text);
    return match ? Number(match[1]) : undefined;
  };
  return {
    prompt: tag('prompt-tokens'),
    cacheRead: tag('cache-read') ?? 0,
    cacheWrite5m: tag('cache-write') ?? 0,
    cacheWrite1h: tag('cache-write-1h') ?? 0,
    reasoning: tag('reasoning') ?? 0,
  };
}
