import { tokenCostMicros } from '../../billing/cost';
import { resolveModel, servingRoutes } from '../../catalog/resolve';
import type { EmbeddingModel, EmbeddingRoute } from '../../catalog/types';
import { GatewayError } from '../../errors';
import type { EmbeddingInputs, EmbeddingsAdapter } from '../../providers/adapters';
import { adapterOf } from '../../providers/registry';
import { textTokens, utf8Bytes } from '../chat/estimate';
import type { EmbeddingsInput } from './request';

/**
 * Tokens an upstream may add to each input beyond its text (XLM-RoBERTa's `<s>` and `</s>`, BERT's
 * `[CLS]` and `[SEP]`): counted in the bound, so a one-byte input still fits its hold.
 */
const TOKENS_PER_INPUT = 8;

/** One upstream request's worth of inputs, within its provider's limits. */
export interface EmbeddingsPart {
  inputs: EmbeddingInputs;
  /** At least what the upstream can bill for these inputs (D33). */
  bound: number;
  /** The likely count (4 characters per token; a token array's length): the charge where the upstream reports none. */
  estimate: number;
}

export interface EmbeddingsPlan {
  model: EmbeddingModel;
  route: EmbeddingRoute;
  adapter: EmbeddingsAdapter;
  count: number;
  /** Sent upstream only when asked and the model's size is not fixed. */
  dimensions?: number;
  base64: boolean;
  parts: EmbeddingsPart[];
  boundTokens: number;
  estimateTokens: number;
  /** The hold: the bound at the route's price, at least one micro-dollar (a hold of nothing would serve an empty balance). */
  holdMicros: number;
  estimateMicros: number;
}

/** The cost of `tokens` input tokens on `route`, in micro-dollars rounded half up once (D16). */
export function embeddingCostMicros(tokens: number, route: EmbeddingRoute): number {
  return tokenCostMicros({ inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, { inputPerMTok: route.inputPerMTok, outputPerMTok: 0 });
}

/**
 * What the route and its quote both decide before any money moves: the model and its serving
 * route, the 400s (an input over the model's limit, a size it does not make, token arrays to an
 * upstream that embeds text only), the hold's bound (D33: each text's UTF-8 bytes, a token array's
 * length, plus `TOKENS_PER_INPUT`, at most the model's input limit) and the parts within the
 * provider's request limits, split in input order.
 */
export function planEmbeddings(request: EmbeddingsInput, env: Env): EmbeddingsPlan {
  const model = resolveModel(request.model, 'embedding', env);
  const route = servingRoutes(model, env)[0]!;
  const adapter = adapterOf(route.provider, 'embeddings')!;
  const inputs = normalize(request.input);
  if (inputs.kind === 'tokens' && !adapter.takesTokenArrays) {
    throw new GatewayError('invalid_request', `${model.id} embeds text only; send \`input\` as a string or an array of strings.`, { param: 'input' });
  }
  const dimensions = checkDimensions(request.dimensions, model);
  const sizes = measure(inputs, model);
  const parts = split(inputs, sizes, adapter.limits);
  const boundTokens = sizes.reduce((sum, size) => sum + size.bound, 0);
  const estimateTokens = sizes.reduce((sum, size) => sum + size.estimate, 0);
  return {
    model,
    route,
    adapter,
    count: sizes.length,
    ...(dimensions !== undefined && { dimensions }),
    base64: request.encoding_format === 'base64',
    parts,
    boundTokens,
    estimateTokens,
    // A free route (a local model priced at 0) holds nothing; any other at least a micro-dollar.
    holdMicros: route.inputPerMTok === 0 ? 0 : Math.max(1, embeddingCostMicros(boundTokens, route)),
    estimateMicros: embeddingCostMicros(estimateTokens, route),
  };
}

function normalize(input: EmbeddingsInput['input']): EmbeddingInputs {
  if (typeof input === 'string') return { kind: 'text', texts: [input] };
  if (input.every((item) => typeof item === 'string')) return { kind: 'text', texts: input };
  if (input.every((item) => typeof item === 'number')) return { kind: 'tokens', arrays: [input] };
  return { kind: 'tokens', arrays: input.filter((item) => Array.isArray(item)) };
}

function checkDimensions(asked: number | undefined, model: EmbeddingModel): number | undefined {
  if (asked === undefined) return undefined;
  if (asked < model.minDimensions || asked > model.maxDimensions) {
    const range = model.minDimensions === model.maxDimensions ? `only ${model.maxDimensions}` : `${model.minDimensions} to ${model.maxDimensions}`;
    throw new GatewayError('invalid_request', `${model.id} makes vectors of ${range} dimensions; \`dimensions\` was ${asked}.`, { param: 'dimensions' });
  }
  return model.minDimensions === model.maxDimensions ? undefined : asked;
}

function measure(inputs: EmbeddingInputs, model: EmbeddingModel): { bound: number; estimate: number }[] {
  const limit = model.maxInputTokens;
  const tooLong = (index: number, tokens: number, about: string) =>
    new GatewayError('invalid_request', `input[${index}] is ${about}${tokens} tokens; ${model.id} takes at most ${limit} tokens per input. Split it.`, { param: 'input' });
  if (inputs.kind === 'tokens') {
    return inputs.arrays.map((array, index) => {
      if (array.length > limit) throw tooLong(index, array.length, '');
      return { bound: Math.min(array.length + TOKENS_PER_INPUT, limit), estimate: array.length };
    });
  }
  return inputs.texts.map((text, index) => {
    const estimate = textTokens(text);
    if (estimate > limit) throw tooLong(index, estimate, 'about ');
    return { bound: Math.min(utf8Bytes(text) + TOKENS_PER_INPUT, limit), estimate };
  });
}

/** Consecutive parts, each within the provider's inputs and (bounded) tokens per request. */
function split(inputs: EmbeddingInputs, sizes: { bound: number; estimate: number }[], limits: EmbeddingsAdapter['limits']): EmbeddingsPart[] {
  const parts: { start: number; end: number; bound: number; estimate: number }[] = [];
  let current = { start: 0, end: 0, bound: 0, estimate: 0 };
  sizes.forEach((size, index) => {
    if (current.end > current.start && (current.end - current.start >= limits.maxInputs || current.bound + size.bound > limits.maxTokens)) {
      parts.push(current);
      current = { start: index, end: index, bound: 0, estimate: 0 };
    }
    current.end = index + 1;
    current.bound += size.bound;
    current.estimate += size.estimate;
  });
  parts.push(current);
  return parts.map(({ start, end, bound, estimate }) => ({
    inputs: inputs.kind === 'text' ? { kind: 'text', texts: inputs.texts.slice(start, end) } : { kind: 'tokens', arrays: inputs.arrays.slice(start, end) },
    bound,
    estimate,
  }));
}
