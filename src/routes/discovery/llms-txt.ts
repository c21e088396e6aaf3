/** `/llms.txt` (llmstxt.org): what the service is and where each part is described. */
export function llmsText(base: string): string {
  return `# AI Gateway

> One API key and one prepaid USD balance for chat, image, video and speech models from many
> makers, plus live web context (scrape, crawl, structured extract). Agents can sign themselves
> up, get funded, and later be claimed by a human.

Chat completions are OpenAI-compatible at ${base}/v1/chat/completions; authenticate with
\`Authorization: Bearer ak-...\`.

## Docs

- [Agent guide](${base}/auth.md): register, fund, check the balance, hand over the claim
- [OpenAPI description](${base}/openapi.json): every route and schema
- [Model catalog](${base}/v1/models): live models and prices, no key needed
- [Protected-resource metadata](${base}/.well-known/oauth-protected-resource)

## API

- POST /agent/register: anonymous account with an API key and a claim token
- GET /agent/account: balance, claim state, funding link
- POST /agent/keys, GET /agent/keys, DELETE /agent/keys/{key_id}: sub-keys for sub-agents, with a spend limit, an expiry, allowed models and routes
- POST /v1/chat/completions: chat, streaming, tools, images and PDFs
- POST /v1/scrape, /v1/crawl, /v1/extract: web pages as markdown, whole sites, structured records
- POST /v1/images/generations: images, answered as hosted links; POST /v1/images/jobs and GET /v1/images/jobs/{id}: the same as a job
- POST /v1/videos/generations and GET /v1/videos/generations/{id}: video jobs
- POST /v1/audio/speech: speech, answered as a hosted MP3 link
- POST /v1/uploads, GET /v1/uploads: files to pass as image references
- GET /v1/generations: completed generations, newest first
- /x402/v1/...: every billed route, paid per request with x402 (USDC on Base) by an agent without a key; the paid answer carries a new funded account's key
- POST /v1/quote: what a billed request would cost and whether the balance covers it, with no side effect
- GET /v1/requests/{request_id}: a billed request of this account by its X-Service-Request-Id: cost, units, status, timing (30 days)
- POST /mcp: the same routes as MCP tools (Streamable HTTP, stateless, JSON answers; \`Authorization: Bearer ak-...\`): list_models, chat_completion, scrape, crawl, extract, get_job, generate_image, create_speech, get_account, fund_account
`;
}
