import { startAnthropicUpstream } from '../upstreams/anthropic';
import { GEMINI_SIMULATOR_API_KEY, startGeminiUpstream } from '../upstreams/gemini';
import { startOpenAIUpstream } from '../upstreams/openai';
import { sendJson, startUpstream, type Upstream } from '../upstreams/server';

/** One simulator per upstream chat format: OpenAI-compatible, Anthropic Messages, Gemini. */
export type ChatFormat = 'openai' | 'anthropic' | 'gemini';

export interface ChatUpstreams {
  /** Base URLs as an operator writes `<P>_BASE_URL`. */
  baseUrls: Record<ChatFormat, string>;
  geminiKey: string;
  /** `GET <inspector>/<format>` answers the requests that simulator received, oldest first. */
  inspector: string;
}

/**
 * The chat simulators, started in Node by the global setup. Tests run inside workerd and cannot
 * read the simulators' memory, so a small inspector serves what each one received.
 */
export async function startChatUpstreams(): Promise<{ upstreams: ChatUpstreams; stop: () => Promise<void> }> {
  const [openai, anthropic, gemini] = await Promise.all([startOpenAIUpstream(), startAnthropicUpstream(), startGeminiUpstream()]);
  const byFormat: Record<ChatFormat, Upstream> = { openai, anthropic, gemini };
  const inspector = await startUpstream((request, res) => {
    const upstream = Object.entries(byFormat).find(([format]) => request.path === `/${format}`)?.[1];
    if (!upstream) return sendJson(res, 404, { error: `no simulator at ${request.path}` });
    sendJson(res, 200, upstream.requests.map(({ method, path, body }) => ({ method, path, body })));
  });
  return {
    upstreams: {
      baseUrls: { openai: `${openai.url}/v1`, anthropic: anthropic.url, gemini: gemini.url },
      geminiKey: GEMINI_SIMULATOR_API_KEY,
      inspector: inspector.url,
    },
    stop: async () => {
      await Promise.all([openai, anthropic, gemini, inspector].map((upstream) => upstream.stop()));
    },
  };
}
