import { Shell } from '../shell';

/** One client's setup, its lines filled in with this deployment's base URL. */
interface Snippet {
  id: string;
  title: string;
  lines: string;
}

/**
 * How each client is pointed at the gateway (README "For agents", docs/agents/*); `model` is the
 * chat model the examples name: one this deployment serves (the demo model before any provider).
 */
export function clientSnippets(base: string, model: string): Snippet[] {
  return [
    {
      id: 'key',
      title: 'Get a key (an agent signs itself up)',
      lines: `curl -s ${base}/agent/register -d '{"type":"anonymous"}'\n# then: export GATEWAY_API_KEY=<the api_key it answers>`,
    },
    {
      id: 'curl',
      title: 'A chat completion',
      lines: `curl ${base}/v1/chat/completions \\\n  -H "Authorization: Bearer $GATEWAY_API_KEY" \\\n  -d '{"model":"${model}","messages":[{"role":"user","content":"Hello"}]}'`,
    },
    {
      id: 'claude-code',
      title: 'Claude Code (Anthropic Messages)',
      lines: `ANTHROPIC_BASE_URL=${base} ANTHROPIC_API_KEY=$GATEWAY_API_KEY claude`,
    },
    {
      id: 'codex',
      title: 'Codex CLI (OpenAI Responses), in ~/.codex/config.toml',
      lines: `model = "${model}"\nmodel_provider = "gateway"\n\n[model_providers.gateway]\nname = "gateway"\nbase_url = "${base}/v1"\nenv_key = "GATEWAY_API_KEY"\nwire_api = "responses"`,
    },
    {
      id: 'openai-sdk',
      title: 'The OpenAI SDK',
      lines: `import OpenAI from 'openai';\nconst client = new OpenAI({ baseURL: '${base}/v1', apiKey: process.env.GATEWAY_API_KEY });`,
    },
    {
      id: 'ai-sdk',
      title: 'The AI SDK',
      lines: `import { createOpenAI } from '@ai-sdk/openai';\nconst gateway = createOpenAI({ baseURL: '${base}/v1', apiKey: process.env.GATEWAY_API_KEY });`,
    },
    {
      id: 'mcp',
      title: 'An MCP client (Streamable HTTP)',
      lines: `claude mcp add --transport http gateway ${base}/mcp --header "Authorization: Bearer $GATEWAY_API_KEY"`,
    },
  ];
}

/** `/`: what this gateway is, its base URL, and how to point each client at it. */
export function HomePage(props: { base: string; models: number; exampleModel: string }) {
  return (
    <Shell title="AI gateway" wide>
      <h1>AI gateway</h1>
      <p>
        One API key and one prepaid USD balance for {props.models} models from many makers (chat, images, video, speech, embeddings, transcription), and live web context
        (scrape, crawl, extract). Agents sign themselves up, pay by card, USDC or x402, and can be claimed by a person later.
      </p>
      <dl>
        <dt>Base URL</dt>
        <dd>
          <code id="base-url">{props.base}</code>
        </dd>
      </dl>
      <nav aria-label="Start here">
        <ul class="links">
          <li>
            <a href="/models">Model catalog</a>
          </li>
          <li>
            <a href="/auth.md">How an agent signs up and pays (auth.md)</a>
          </li>
          <li>
            <a href="/openapi.json">OpenAPI document</a>
          </li>
          <li>
            <a href="/signin">Sign in</a>
          </li>
        </ul>
      </nav>
      {clientSnippets(props.base, props.exampleModel).map((snippet) => (
        <section aria-labelledby={`${snippet.id}-title`}>
          <h2 id={`${snippet.id}-title`}>{snippet.title}</h2>
          <pre id={snippet.id}>
            <code>{snippet.lines}</code>
          </pre>
        </section>
      ))}
    </Shell>
  );
}
