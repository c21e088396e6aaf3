import type { ParamGroup } from '../../catalog/types';
import { GatewayError } from '../../errors';
import type { ChatRequest } from '../../providers/chat/types';

/** Members every adapter applies (or the gateway handles itself). */
const APPLIED_EVERYWHERE = new Set([
  'model',
  'messages',
  'stream',
  'stream_options',
  'temperature',
  'max_tokens',
  'max_completion_tokens',
  'n',
  'top_p',
  'stop',
  'tools',
  'tool_choice',
]);

/**
 * What else an OpenAI-shaped upstream (groups 1 and 2) receives: members that change nothing it
 * bills beyond the prompt and the output (D33). Any other member is removed and announced, so
 * nothing the hold does not count reaches an upstream unseen.
 */
const PASSED_ON = new Set([
  ...['frequency_penalty', 'presence_penalty', 'seed', 'logprobs', 'top_logprobs', 'logit_bias', 'response_format'],
  ...['user', 'safety_identifier', 'metadata', 'parallel_tool_calls', 'reasoning_effort', 'verbosity', 'prompt_cache_key'],
  ...['functions', 'function_call'],
  // Sampling members of compatible providers (Together, Fireworks, Groq, Mistral).
  ...['top_k', 'min_p', 'repetition_penalty', 'reasoning_format', 'safe_prompt'],
  // Checked by `refuseBilledMembers` first: only their unbilled values get here.
  ...['service_tier', 'store', 'modalities'],
]);
/** Group 1 only: OpenAI's predicted outputs, whose rejected tokens the hold counts as output. */
const GROUP_1_ONLY = new Set(['prediction']);

/** Sampling-only parameters a group does not apply: the request runs and the header lists them. */
const ANNOUNCED: Record<ParamGroup, string[]> = {
  1: [],
  2: ['logprobs', 'top_logprobs', 'logit_bias', 'prediction'],
  3: ['seed', 'frequency_penalty', 'presence_penalty', 'logprobs', 'top_logprobs', 'logit_bias'],
};

/**
 * Members an upstream bills beyond tokens of text, or that change the answer's shape: refused
 * with a 400 naming them, on every group (D33), unless their value bills nothing more.
 */
function refuseBilledMembers(request: ChatRequest): void {
  const refuse = (param: string, why: string) => {
    throw new GatewayError('invalid_request', `${param} is not supported: ${why}`, { param });
  };
  const tier = request.service_tier;
  if (tier !== undefined && tier !== null && tier !== 'auto' && tier !== 'default') {
    refuse('service_tier', 'requests run on the default tier, which is what the catalog prices (omit it, or send "default").');
  }
  if (request.store !== undefined && request.store !== null && request.store !== false) refuse('store', 'completions are not stored upstream (omit it, or send false).');
  if (request.audio !== undefined && request.audio !== null) refuse('audio', 'audio output is not priced by this gateway; /v1/audio/speech speaks text.');
  const modalities = request.modalities;
  if (modalities !== undefined && modalities !== null && !(Array.isArray(modalities) && modalities.every((m) => m === 'text'))) {
    refuse('modalities', 'only text output is served (omit it, or send ["text"]).');
  }
  for (const param of ['web_search_options', 'search_parameters']) {
    if (request[param] !== undefined && request[param] !== null) refuse(param, "the upstream's search is billed per search and not priced here; /v1/scrape reads pages.");
  }
}

/** The members a route of `group` applies (`/v1/models` lists them per endpoint, D34): what `applyParamRules` keeps. */
export function appliedParameters(group: ParamGroup, unapplied: readonly string[] = []): string[] {
  const candidates = group === 3 ? [...APPLIED_EVERYWHERE, 'response_format'] : [...APPLIED_EVERYWHERE, ...PASSED_ON, ...(group === 1 ? GROUP_1_ONLY : [])];
  return candidates.filter((name) => name !== 'model' && name !== 'messages' && !unapplied.includes(name) && !(group !== 3 && ANNOUNCED[group].includes(name)));
}

export interface ParamPlan {
  /** The request without the members the upstream will not get. */
  request: ChatRequest;
  /** Parameters not applied, for `x-service-unsupported-params`. */
  unsupported: string[];
}

/**
 * The spec's provider-parameter table: a parameter that would change the response shape and
 * that the group cannot honour is a 400 naming it; a sampling-only one is removed and announced.
 * A member billed beyond text (`refuseBilledMembers`) is a 400 everywhere. Group 3 builds its
 * upstream body from known members, and groups 1 and 2 pass on only `PASSED_ON`, so any other
 * member is announced too: nothing is dropped silently, and nothing reaches an upstream unpriced.
 * `unapplied` is what the route's adapter rejects beyond its group (`ChatAdapter.unapplied`).
 */
export function applyParamRules(request: ChatRequest, group: ParamGroup, unapplied: readonly string[] = []): ParamPlan {
  refuseBilledMembers(request);
  if ((request.n ?? 1) > 1 && group !== 1) {
    throw new GatewayError('invalid_request', 'This model returns one choice per request; n above 1 is not supported.', { param: 'n' });
  }
  const format = request.response_format as { type?: unknown } | undefined;
  if (group === 3 && format !== undefined && format !== null && format.type !== 'text') {
    throw new GatewayError('invalid_request', "This model's provider does not support response_format.", { param: 'response_format' });
  }

  const passes = (name: string) =>
    !unapplied.includes(name) &&
    (APPLIED_EVERYWHERE.has(name) ||
      (group === 3 ? name === 'response_format' : !ANNOUNCED[group].includes(name) && (PASSED_ON.has(name) || (group === 1 && GROUP_1_ONLY.has(name)))));
  const unsupported = Object.keys(request).filter((name) => request[name] !== undefined && !passes(name));
  const kept: ChatRequest = { ...request };
  for (const name of unsupported) delete kept[name];
  return { request: kept, unsupported };
}
