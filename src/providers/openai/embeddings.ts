import { openaiShapedEmbeddings } from '../openai-compatible/embeddings';

/**
 * OpenAI's embeddings (https://platform.openai.com/docs/api-reference/embeddings/create): strings
 * or token arrays, `dimensions`, base64; one request takes at most 2,048 inputs and 300,000 tokens.
 */
export const openaiEmbeddings = openaiShapedEmbeddings({
  limits: { maxInputs: 2048, maxTokens: 300_000 },
  takesTokenArrays: true,
  dimensionsMember: 'dimensions',
  base64: true,
});
