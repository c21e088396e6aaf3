import type { AccountClient } from './accounts/account-client';
import type { RequestLogFields } from './observability/request-log';
import type { ProviderId } from './providers/ids';

type ProviderSetting = `${Uppercase<ProviderId>}_${'API_KEY' | 'BASE_URL'}`;

/**
 * Optional configuration of the contract that `wrangler types` cannot see (secrets, and names
 * that are simply unset). Every name is documented in `.dev.vars.example`.
 */
type OptionalConfig = Partial<
  Record<
    | ProviderSetting
    | 'ADMIN_TOKEN'
    | 'PUBLIC_BASE_URL'
    /** Sender address of the mail the `EMAIL` binding sends (claim codes, `src/human/email.ts`). */
    | 'EMAIL_FROM'
    | 'STEALTH_API_KEY'
    | 'STEALTH_BASE_URL'
    | 'STRIPE_SECRET_KEY'
    | 'STRIPE_WEBHOOK_SECRET'
    | 'STRIPE_API_BASE'
    | 'BASE_RPC_URL'
    | 'USDC_DEPOSIT_ADDRESS'
    /** The chain id the USDC RPC endpoint must answer (default 8453, Base mainnet). */
    | 'USDC_CHAIN_ID'
    /** x402 (issue #22): settle through this facilitator, or in process with the relayer key (pays gas). */
    | 'X402_FACILITATOR_URL'
    | 'X402_RELAYER_PRIVATE_KEY'
    /** The least an x402 challenge asks for, in USD (default 1). */
    | 'X402_MIN_TOPUP_USD'
    /** The token's EIP-712 domain (default "USD Coin", "2": USDC's). */
    | 'USDC_EIP712_NAME'
    | 'USDC_EIP712_VERSION'
    /** How long a chat upstream may take to answer with headers, in ms (default `UPSTREAM_IDLE_TIMEOUT_MS`). */
    | 'UPSTREAM_TIMEOUT_MS'
    /** How long an upstream's body may send nothing before the request ends, in ms (default 60000). */
    | 'UPSTREAM_IDLE_TIMEOUT_MS'
    /** How long one image render may take, in ms (default 300000, at most 360000). */
    | 'IMAGE_RENDER_TIMEOUT_MS'
    /** Domains scrape, crawl and extract never fetch (comma-separated; subdomains included). */
    | 'WEB_BLOCKED_DOMAINS'
    /** Auto top-up's ceiling per account and UTC day, in USD (default 2000) and in charges (default 10). */
    | 'AUTO_TOP_UP_DAILY_MAX_USD'
    | 'AUTO_TOP_UP_DAILY_MAX_COUNT'
    /** A chat route's breaker (issue 39): failures in a row within the window that open it (default 3; 0 turns it off), the window, its cool-down, and the most an upstream's `Retry-After` may set it to, in ms (defaults 30000, 30000, 600000). */
    | 'ROUTE_BREAKER_FAILURES'
    | 'ROUTE_BREAKER_WINDOW_MS'
    | 'ROUTE_BREAKER_COOLDOWN_MS'
    | 'ROUTE_BREAKER_MAX_COOLDOWN_MS'
    /** `off` keeps every chat request in strict order: the hold, then the upstream (D21). */
    | 'SPECULATIVE_DISPATCH'
    /** The demo chat model `gateway/echo`: `on`, `off`, or `auto` (default: served while no chat provider is configured). */
    | 'DEMO_MODEL'
    /** Prices of a local OpenAI-compatible server's models, JSON `{"<id>": {"input": N, "output": N}}` in USD per 1M tokens (default: all 0). */
    | 'LOCAL_OPENAI_PRICES'
    /** Comma-separated model ids of the local server that are embedding models (besides ids containing `embed`). */
    | 'LOCAL_OPENAI_EMBEDDING_MODELS'
    /** Welcome credit granted per UTC day across all registrations, in USD (default 50). */
    | 'WELCOME_CREDITS_DAILY_USD'
    /** R2's S3 API credentials: all three set, `POST /v1/uploads` answers a presigned R2 PUT (`src/media/presign.ts`). */
    | 'R2_ACCOUNT_ID'
    | 'R2_ACCESS_KEY_ID'
    | 'R2_SECRET_ACCESS_KEY'
    /** The S3 endpoint (default `https://<R2_ACCOUNT_ID>.r2.cloudflarestorage.com`; tests point it at a local server). */
    | 'R2_S3_ENDPOINT'
    /** The `MEDIA` binding's bucket name, for S3 URLs (default `ai-gateway-media`, as in wrangler.toml). */
    | 'R2_BUCKET_NAME',
    string
  >
>;

/** Bindings a deployment may add to `wrangler.toml` (docs/operators/deploy.md): absent unless configured. */
interface OptionalBindings {
  /** A `[[send_email]]` binding: mails the claim's one-time code (`src/human/email.ts`). */
  EMAIL?: SendEmail;
}

declare global {
  // Merges into the `Env` that `wrangler types` generates in worker-configuration.d.ts.
  interface Env extends OptionalConfig, OptionalBindings {}
  namespace Cloudflare {
    interface Env extends OptionalConfig, OptionalBindings {}
  }
}

/** The caller named by a well-formed API key; the key itself is verified by the account's Durable Object. */
export interface Caller {
  accountId: string;
  keyHash: string;
  account: AccountClient;
}

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    caller: Caller;
    /** What the handlers add to the request's log line (`src/middleware/request-log`). */
    log: RequestLogFields;
  };
}
