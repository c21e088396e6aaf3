/**
 * Every chat simulator behaves the same way for the same prompt, so one end-to-end test can run
 * against each wire format. The scenario is chosen by a tag in the last user message's text.
 */
export type Scenario = 'hello' | 'tool' | 'die' | 'error500' | 'error429' | 'slow';

export function scenarioOf(lastUserText: string): Scenario {
  if (lastUserText.includes('[tool]')) return 'tool';
  if (lastUserText.includes('[die]')) return 'die';
  if (lastUserText.includes('[500]')) return 'error500';
  if (lastUserText.includes('[429]')) return 'error429';
  if (lastUserText.includes('[slow]')) return 'slow';
  return 'hello';
}

/** The answer's words: `hello` says these; `slow` says 200 numbered words, one per 50 ms chunk. */
export const HELLO_WORDS = ['Hello', ' from', ' the', ' simulator', '!'];
export const SLOW_WORDS = Array.from({ length: 200 }, (_, i) => ` w${i}`);
export const SLOW_CHUNK_MS = 50;

/** `die` sends these chunks, then drops the connection without a terminator. */
export const DIE_AFTER_WORDS = ['Partial', ' answer'];

/** The tool call every simulator makes for `tool`: the first tool offered, these arguments. */
export const TOOL_ARGUMENTS = { city: 'Paris', unit: 'celsius' };

/** Deterministic usage: prompt tokens from the request size, one output token per word sent. */
export function promptTokensOf(requestBody: unknown): number {
  return 10 + Math.ceil(JSON.stringify(requestBody).length / 4);
}
