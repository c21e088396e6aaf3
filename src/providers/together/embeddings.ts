import { openaiShapedEmbeddings } from '../openai-compatible/embeddings';

/**
 * Together's embeddings (https://docs.together.ai/reference/embeddings): OpenAI's shape, `input` a
 * string or an array of strings (no token arrays), each model's own size (no `dimensions`),
 * floats only. Parts of at most 100 inputs, what Together's guides batch.
 */
export const togetherEmbeddings = openaiShapedEmbeddings({
  limits: { maxInputs: 100, maxTokens: 100 * 512 },
  takesTokenArrays: false,
  base64: false,
});
