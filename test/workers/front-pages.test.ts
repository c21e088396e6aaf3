import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { MODELS } from '../../src/catalog/models';
import { call, register } from './helpers';

const app = createApp();

/** The rows of the catalog page's table: each model id shown. */
const listedIds = (html: string) => [...html.matchAll(/<td data-label="Model"><code>([^<]+)<\/code>/g)].map((m) => m[1]);

describe('the landing page', () => {
  it("answers / with what the gateway is and each client's setup filled in with this deployment's base URL", async () => {
    const res = await call('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toContain('<code id="base-url">https://gateway.test</code>');
    expect(html).toContain('ANTHROPIC_BASE_URL=https://gateway.test ANTHROPIC_API_KEY=$GATEWAY_API_KEY claude');
    expect(html).toContain('base_url = &quot;https://gateway.test/v1&quot;');
    expect(html).toContain('wire_api = &quot;responses&quot;');
    expect(html).toContain("baseURL: &#39;https://gateway.test/v1&#39;");
    expect(html).toContain('claude mcp add --transport http gateway https://gateway.test/mcp');
    for (const href of ['/models', '/auth.md', '/openapi.json', '/signin']) expect(html).toContain(`href="${href}"`);
    expect(html).toContain(`${MODELS.length} models from many makers`);
  });

  it('names a chat model this deployment serves in its examples: the demo model before any provider, a real one after', async () => {
    expect(await (await call('/')).text()).toContain('{&quot;model&quot;:&quot;gateway/echo&quot;');
    const configured = await (await app.fetch(new Request('https://gateway.test/'), { ...env, OPENAI_API_KEY: 'sk-test' } as Env)).text();
    expect(configured).toContain('{&quot;model&quot;:&quot;openai/gpt-4o-mini&quot;');
    expect(configured).not.toContain('gateway/echo');
  });
});

describe('the model catalog page', () => {
  it('lists every catalog model with its price, context and providers, the configured ones serving', async () => {
    const res = await call('/models');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(listedIds(html)).toEqual(MODELS.map((model) => model.id));
    expect(html).toContain(`${MODELS.length} models`);
    const row = (page: string) => /<code>openai\/gpt-4o-mini<\/code>.*?<\/tr>/.exec(page)![0];
    expect(row(html)).toContain('<td data-label="Context" class="num">128,000</td><td data-label="Price">$0.15 / 1M input tokens, $0.60 / 1M output tokens</td>');
    expect(row(html)).toContain('OpenAI <span class="muted">(not configured)</span>');
    // With the operator's OpenAI key, its endpoints serve.
    const configured = await app.fetch(new Request('https://gateway.test/models'), { ...env, OPENAI_API_KEY: 'sk-test' } as Env);
    expect(row(await configured.text())).toContain('OpenAI <span class="ok">(serving)</span>');
  });

  it('filters by words of the id, name or maker and by type, with a plain GET form', async () => {
    const claude = await (await call('/models?q=claude%20sonnet')).text();
    const expected = MODELS.filter((m) => /claude/i.test(`${m.id} ${m.displayName}`) && /sonnet/i.test(`${m.id} ${m.displayName}`)).map((m) => m.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(listedIds(claude)).toEqual(expected);
    expect(claude).toContain(`${expected.length} of ${MODELS.length} models`);
    expect(claude).toContain('value="claude sonnet"');
    const images = listedIds(await (await call('/models?type=image')).text());
    expect(images).toEqual(MODELS.filter((m) => m.type === 'image').map((m) => m.id));
    // An unknown type is no filter, not an error.
    expect(listedIds(await (await call('/models?type=nope')).text())).toHaveLength(MODELS.length);
  });

  it('escapes what the visitor typed', async () => {
    const html = await (await call(`/models?q=${encodeURIComponent('"><script>alert(1)</script>')}`)).text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain(`0 of ${MODELS.length} models`);
  });
});

describe('the fund page without a payment rail', () => {
  it('says what the payer and the operator can do instead of showing two dead cards', async () => {
    const agent = await register();
    const path = new URL(agent.fund_url).pathname;
    const bare = { ...env, STRIPE_SECRET_KEY: '', BASE_RPC_URL: '' } as unknown as Env;
    const html = await (await app.fetch(new Request(`https://gateway.test${path}`), bare)).text();
    expect(html).toContain('<section id="no-rails"');
    expect(html).not.toContain('Card payments are not available');
    expect(html).toContain('<code>STRIPE_SECRET_KEY</code>');
    expect(html).toContain('<code>POST /admin/accounts/{id}/credits</code>');
  });
});
