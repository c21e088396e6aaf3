import type { ProviderConfig } from '../adapters';
import { openAICompatibleChat } from '../openai-compatible/chat';
import { openaiShapedEmbeddings } from '../openai-compatible/embeddings';

/**
 * A local OpenAI-compatible server (Ollama, vLLM, llama.cpp's server, LM Studio), turned on by
 * `LOCAL_OPENAI_BASE_URL` (`LOCAL_OPENAI_API_KEY` optional): its models are discovered from its
 * `GET /v1/models` (`src/catalog/local.ts`). Chat at `/chat/completions`, embeddings at
 * `/embeddings`. Group 2: these servers differ in `n` and logprobs, so neither is promised.
 */
export const localOpenai: ProviderConfig = {
  name: 'Local OpenAI-compatible server',
  defaultBaseUrl: 'http://127.0.0.1:11434/v1',
  versionPrefix: '/v1',
  chat: openAICompatibleChat({ path: '/chat/completions' }),
  paramGroup: 2,
  // Texts only (Ollama takes no token arrays); `dimensions` is passed on where the model has it.
  embeddings: openaiShapedEmbeddings({ limits: { maxInputs: 256, maxTokens: 300_000 }, takesTokenArrays: false, dimensionsMember: 'dimensions', base64: false }),
};
