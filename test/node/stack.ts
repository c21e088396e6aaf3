import { startAnthropicUpstream } from '../upstreams/anthropic';
import { GEMINI_SIMULATOR_API_KEY, startGeminiUpstream } from '../upstreams/gemini';
import { startOpenAIUpstream } from '../upstreams/openai';
import type { Upstream } from '../upstreams/server';
import { CLOSED_PORT, startGateway, type RunningGateway } from './gateway-process';

export const STACK_ADMIN_TOKEN = 'stack-admin-token-0123456789';

export interface Stack {
  gateway: RunningGateway;
  upstreams: { openai: Upstream; groq: Upstream; together: Upstream; anthropic: Upstream; gemini: Upstream };
  /** Registers an agent and credits it through the operator API. */
  fundedAccount: (usd: string) => Promise<{ apiKey: string; accountId: string; balance: () => Promise<string> }>;
  stop: () => Promise<void>;
}

/**
 * The gateway under `wrangler dev` with every chat wire format played by a local simulator:
 * OpenAI (group 1), Groq (group 2, with Together as the fallback route of shared models),
 * Anthropic and Gemini (group 3). xAI points at a closed port (a refused connection).
 */
export async function startStack(extraVars: Record<string, string> = {}): Promise<Stack> {
  const [openai, groq, together, anthropic, gemini] = await Promise.all([
    startOpenAIUpstream(),
    startOpenAIUpstream({ path: '/openai/v1/chat/completions', name: 'groq', supportsN: false }),
    startOpenAIUpstream({ name: 'together', healthy: true }),
    startAnthropicUpstream(),
    startGeminiUpstream(),
  ]);
  const gateway = await startGateway({
    ADMIN_TOKEN: STACK_ADMIN_TOKEN,
    OPENAI_API_KEY: 'sk-openai-test',
    // Base URLs as operators copy them: OpenAI's as its SDK writes it (with /v1), Together's
    // bare; the gateway accepts both (the quick-start test uses the other spellings).
    OPENAI_BASE_URL: `${openai.url}/v1`,
    GROQ_API_KEY: 'gsk-test',
    GROQ_BASE_URL: `${groq.url}/openai/v1`,
    TOGETHER_API_KEY: 'together-test',
    TOGETHER_BASE_URL: together.url,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ANTHROPIC_BASE_URL: anthropic.url,
    GEMINI_API_KEY: GEMINI_SIMULATOR_API_KEY,
    GEMINI_BASE_URL: gemini.url,
    XAI_API_KEY: 'xai-test',
    XAI_BASE_URL: `http://127.0.0.1:${CLOSED_PORT}/v1`,
    ...extraVars,
  });

  const fundedAccount = async (usd: string) => {
    const registered = await fetch(`${gateway.url}/agent/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': `198.51.100.${Math.floor(Math.random() * 250)}` },
      body: JSON.stringify({ type: 'anonymous' }),
    });
    const { api_key: apiKey, account_id: accountId } = (await registered.json()) as { api_key: string; account_id: string };
    if (usd !== '0') {
      const credited = await fetch(`${gateway.url}/admin/accounts/${accountId}/credits`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${STACK_ADMIN_TOKEN}` },
        body: JSON.stringify({ amount_usd: usd, reason: 'test funding' }),
      });
      if (!credited.ok) throw new Error(`credit failed: ${credited.status}`);
    }
    const balance = async () => {
      const res = await fetch(`${gateway.url}/agent/account`, { headers: { Authorization: `Bearer ${apiKey}` } });
      return ((await res.json()) as { balance_usd: string }).balance_usd;
    };
    return { apiKey, accountId, balance };
  };

  return {
    gateway,
    upstreams: { openai, groq, together, anthropic, gemini },
    fundedAccount,
    stop: async () => {
      await gateway.stop();
      await Promise.all([openai, groq, together, anthropic, gemini].map((upstream) => upstream.stop()));
    },
  };
}
