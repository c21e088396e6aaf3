import { openaiShapedEmbeddings } from '../openai-compatible/embeddings';

/**
 * Mistral's embeddings (https://docs.mistral.ai/api/#tag/embeddings): `input` is a string or an
 * array of strings (no token arrays), `mistral-embed` has one size (1,024; no `dimensions`), and
 * answers floats. A request over 16,384 tokens in all is refused by Mistral ("Too many tokens in
 * batch"), so parts stay within it.
 */
export const mistralEmbeddings = openaiShapedEmbeddings({
  limits: { maxInputs: 512, maxTokens: 16_384 },
  takesTokenArrays: false,
  base64: false,
});
