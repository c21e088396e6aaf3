import type { PriceSource } from '../types';

/**
 * Public price pages the catalog numbers come from, with the day they were read.
 * `readOn` is the catalog date (2026-11-22) unless the stored copy of the page we read
 * carries an older date, in which case that older date is used.
 */
export const CATALOG_DATE = '2026-11-22';

const at = (url: string, readOn: string = CATALOG_DATE): PriceSource => ({ url, readOn });

/** OpenAI API pricing page; stored copy read on 2026-11-05. */
export const OPENAI_PRICING = at('https://developers.openai.com/api/docs/pricing', '2026-11-05');
/** OpenAI's embedding model pages: text-embedding-3-large $0.13, text-embedding-3-small $0.02 per 1M tokens; stored copy read 2026-12-02. */
export const openaiModelPage = (model: string): PriceSource => at(`https://developers.openai.com/api/docs/models/${model}`, '2026-12-02');
/** Claude API pricing page (prompt caching: 5m cache write, cache hits). */
export const ANTHROPIC_PRICING = at('https://platform.claude.com/docs/en/about-claude/pricing');
/** Gemini Developer API pricing page (context caching price = cache read). */
export const GEMINI_PRICING = at('https://ai.google.dev/gemini-api/docs/pricing');
/** xAI API pricing page. */
export const XAI_PRICING = at('https://docs.x.ai/developers/pricing');
/** DeepSeek "Models & Pricing"; stored copies checked 2026-04-30. */
export const DEEPSEEK_PRICING = at('https://api-docs.deepseek.com/quick_start/pricing', '2026-04-30');
/** Mistral AI API pricing. */
export const MISTRAL_PRICING = at('https://mistral.ai/pricing#api-pricing');
/** GroqCloud on-demand pricing. */
export const GROQ_PRICING = at('https://groq.com/pricing');
/** Together AI serverless inference pricing. */
export const TOGETHER_PRICING = at('https://www.together.ai/pricing');
/** Fireworks AI serverless pricing. */
export const FIREWORKS_PRICING = at('https://fireworks.ai/pricing');
/** Cerebras publishes each model's price on its model page (gpt-oss-120b's is `openai-oss`); read 2026-12-02. */
export const cerebrasPage = (page: string): PriceSource => at(`https://inference-docs.cerebras.ai/models/${page}`, '2026-12-02');
/** ElevenLabs API pricing (per 1K characters); stored copy dated June 2026. */
export const ELEVENLABS_PRICING = at('https://elevenlabs.io/pricing/api', '2026-06-01');

/** ElevenLabs Speech to Text (Scribe) per hour of audio, on the same stored API pricing page. */
export const ELEVENLABS_STT_PRICING = ELEVENLABS_PRICING;
/**
 * Groq's speech-to-text guide, whose model table gives each Whisper's "Cost Per Hour"
 * (whisper-large-v3 $0.111, whisper-large-v3-turbo $0.04); stored copy read 2026-12-02.
 */
export const GROQ_SPEECH_TEXT = at('https://console.groq.com/docs/speech-text', '2026-12-02');
/**
 * Together's page of intfloat/multilingual-e5-large-instruct: input $0.02 / 1M tokens, context
 * 514; stored copy read 2026-12-02 (it also says the model is not on Together's serverless API).
 */
export const TOGETHER_E5_PAGE = at('https://www.together.ai/models/multilingual-e5-large-instruct', '2026-12-02');
/** Groq's model pages carry their price per hour of audio (the 10-second minimum: console.groq.com/docs/speech-to-text). */
export const groqModelPage = (model: string): PriceSource => at(`https://console.groq.com/docs/model/${model}`, '2026-12-02');

/** fal.ai prices are published on each model's page. */
export const falPage = (endpointId: string, readOn?: string): PriceSource => at(`https://fal.ai/models/${endpointId}`, readOn);
/** Replicate prices are published on each model's page (`owner/name`). */
export const replicatePage = (model: string, readOn?: string): PriceSource => at(`https://replicate.com/${model}`, readOn);
