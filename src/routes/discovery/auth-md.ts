/** The agent's guide served at `/auth.md`: every step with the exact request to send. */
export function authMarkdown(base: string): string {
  return `# Getting an API key as an agent

This service gives you one API key and one prepaid USD balance for chat, image, video and speech
models and for live web context (scrape, crawl, extract). You can get the key yourself, with no
human and no login. Base URL: \`${base}\`.

## 1. Register

\`\`\`http
POST ${base}/agent/register
Content-Type: application/json

{"type": "anonymous"}
\`\`\`

The 201 answer holds \`account_id\`, \`api_key\` (\`ak-...\`, 48 characters), \`claim_token\`
(\`act_...\`), \`fund_url\`, \`expires_unless_funded_at\` and \`instructions\`. Store \`api_key\` and
\`claim_token\` at once: neither is shown again, and the claim token is the only way to recover
the account. At most 10 registrations per IP address per day (then 429
\`agent_register_rate_limited\` with \`Retry-After\`). If \`welcome_credits_usd\` is present, that
starter credit is already on the balance.

## 2. Use the key

Send \`Authorization: Bearer <api_key>\` (or \`x-api-key: <api_key>\`, as Anthropic clients do) on
every \`/v1\` request. Chat completions follow the
OpenAI chat-completions format, so any OpenAI-compatible client works with base URL
\`${base}/v1\`. \`GET ${base}/v1/models\` (no key needed) lists the models and their prices.
Billed answers carry \`X-Service-Cost\` and \`X-Service-Credits-Remaining\`; a streamed chat ends
with one frame whose \`choices\` is empty and whose \`x_service\` holds the cost.

Before you spend, ask what a request would cost: \`POST ${base}/v1/quote\` with
\`{"path": "/v1/chat/completions", "body": <the request>}\` (any billed route) answers
\`worst_case_usd\`, \`estimated_usd\`, \`available_usd\`, \`affordable\` and, for chat,
\`max_tokens_affordable\`. The body is checked as the route checks it; nothing is held or charged.
After a billed request, \`GET ${base}/v1/requests/{X-Service-Request-Id}\` tells its cost, units
(tokens, images, seconds, characters, pages, records), status and timing, for 30 days.

## 3. Get funded

A new account has a balance of 0 (plus any welcome credit); billed calls answer 402
\`insufficient_credits\` until it is funded. Every such 402 says how to pay in \`error.funding\`:
\`fund_url\`, \`usdc\` (the contract and \`fund_endpoint\`, or null when USDC is off), \`x402\`,
\`available_usd\` and \`required_usd\`. When \`x402\` is true the 402 also carries an x402 v2
\`PAYMENT-REQUIRED\` header (USDC on Base, EIP-3009 \`exact\` scheme, for the shortfall, at least
the minimum top-up): retry the same request with a \`PAYMENT-SIGNATURE\` header (any x402 client,
e.g. \`@x402/fetch\`), the payment is credited to your account and the request served; the answer
carries \`PAYMENT-RESPONSE\`. With no key at all, send the request to \`${base}/x402/v1/...\` (any
billed route, e.g. \`POST ${base}/x402/v1/chat/completions\`): it answers the same 402 challenge for
its worst case; the paid retry creates an account funded with the payment, serves the request and
returns the account's \`X-Service-Account-Id\`, \`X-Service-Api-Key\` and \`X-Service-Claim-Token\`
headers once: store them, the key then works on \`/v1\`. Or:

- give a human the \`fund_url\`: a page with no login that takes a card or USDC; or
- ask for a USDC deposit on Base yourself:

\`\`\`http
POST ${base}/agent/fund
Authorization: Bearer <api_key>
Content-Type: application/json

{"amount_usd": 10}
\`\`\`

  then send exactly \`amount_usdc\` to \`deposit_address\` on the \`base\` network.

Unless it is funded, the account and everything in it are deleted at
\`expires_unless_funded_at\` (30 days after registration). A funded account never expires.

## 4. Check the balance

\`\`\`http
GET ${base}/agent/account
Authorization: Bearer <api_key>
\`\`\`

\`balance_usd\` is a decimal string with 6 fraction digits. Poll no more often than every 5
seconds while you wait for funding.

## 5. Hand the account to a human (optional)

\`\`\`http
POST ${base}/agent/claim/init
Content-Type: application/json

{"claim_token": "act_..."}
\`\`\`

Add \`"email": "..."\` to bind the claim to the human's address: they will also have to enter a code
mailed there. Show the human both \`verification_uri_complete\` (or \`verification_uri\`) and the
6-digit \`user_code\`. Then poll \`POST ${base}/agent/claim/poll\` with the same claim token, no faster
than \`interval\` seconds: \`authorization_pending\` means wait, \`slow_down\` means wait longer (its
\`interval\` member is the new interval), \`expired_token\` means start again with init. A 200 with \`status: "claimed"\` ends it. Your key
keeps working unchanged; the human gets a dashboard, spend guardrails and higher card limits.

## 6. Give a sub-agent its own key (optional)

\`\`\`http
POST ${base}/agent/keys
Authorization: Bearer <api_key>
Content-Type: application/json

{"name": "researcher", "limit_usd": "2.00", "expires_in": 3600, "allowed_models": ["openai/gpt-4o-mini"], "allowed_routes": ["chat", "web"]}
\`\`\`

The answer's \`api_key\` is shown once. Every field but \`name\` is optional; route classes are
\`chat\`, \`images\`, \`videos\`, \`speech\`, \`web\` and \`uploads\`. The sub-key spends your balance,
at most \`limit_usd\` (then 429 \`credit_limit_exceeded\`); another model is 403
\`model_not_allowed\`, another route 403 \`guardrail_blocked\`. \`GET ${base}/agent/keys\` lists your
keys with \`spent_usd\`; \`DELETE ${base}/agent/keys/{key_id}\` revokes one at once. A sub-key cannot
mint or revoke keys.

## 7. Use it as MCP tools (optional)

\`${base}/mcp\` is an MCP server (Streamable HTTP, stateless, JSON answers; send POST) with the
same key as \`Authorization: Bearer <api_key>\`. For a client that reads an \`mcpServers\` config:

\`\`\`json
{"mcpServers": {"ai-gateway": {"type": "http", "url": "${base}/mcp", "headers": {"Authorization": "Bearer <api_key>"}}}}
\`\`\`

Tools: \`list_models\`, \`chat_completion\`, \`scrape\`, \`crawl\`, \`extract\`, \`get_job\`
(\`{"kind": "crawl"|"extract"|"image"|"video", "id"}\`), \`generate_image\`, \`create_speech\`
(a hosted MP3 link), \`get_account\` and \`fund_account\` (\`{"amount_usd"}\`: a USDC deposit and
the fund link). Each runs the route it names, billed and checked exactly as that route; the result
is the route's JSON as \`structuredContent\` with \`_meta\` \`x-service/request_id\` and
\`x-service/cost_usd\`. A refused call is \`isError: true\` with the route's \`{"error": {...}}\`
(a 402 includes \`error.funding\`). Without a valid key \`/mcp\` answers 401 with
\`WWW-Authenticate: Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"\`;
there is no OAuth server: get a key by step 1.

## Errors

Every error is \`{"error": {"code", "message", "type", "param"?}}\`. 401: key missing, invalid,
revoked or expired. 402: fund and retry. 403: the key's guardrails forbid it. 429: honour
\`Retry-After\`. 502/503: retry with backoff.

Machine-readable API description: \`${base}/openapi.json\`.
`;
}
