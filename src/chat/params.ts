import type { ParamGroup } from '../catalog/types';
import { GatewayError } from '../errors';
import type { ChatRequest } from '../providers/chat/types';

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

/** Sampling-only parameters a group does not apply: the request runs and the header lists them. */
const ANNOUNCED: Record<ParamGroup, string[]> = {
  1: [],
  2: ['logprobs', 'top_logprobs', 'logit_bias'],
  3: ['seed', 'frequency_penalty', 'presence_penalty', 'logprobs', 'top_logprobs', 'logit_bias'],
};

export interface ParamPlan {
  /** The request without the members the upstream will not get. */
  request: ChatRequest;
  /** Parameters not applied, for `x-service-unsupported-params`. */
  unsupported: string[];
}

/**
 * The spec's provider-parameter table: a parameter that would change the response shape and
 * that the group cannot honour is a 400 naming it; a sampling-only one is removed and announced.
 * Group 3 builds its upstream body from known members, so any other member is announced too:
 * nothing is dropped silently.
 */
export function applyParamRules(request: ChatRequest, group: ParamGroup): ParamPlan {
  if ((request.n ?? 1) > 1 && group !== 1) {
    throw new GatewayError('invalid_request', 'This model returns one choice per request; n above 1 is not supported.', { param: 'n' });
  }
  const format = request.response_format as { type?: unknown } | undefined;
  if (group === 3 && format !== undefined && format !== null && format.type !== 'text') {
    throw new GatewayError('invalid_request', "This model's provider does not support response_format.", { param: 'response_format' });
  }

  const unsupported = Object.keys(request).filter(
    (name) =>
      request[name] !== undefined &&
      (ANNOUNCED[group].includes(name) || (group === 3 && !APPLIED_EVERYWHERE.has(name) && name !== 'response_format')),
  );
  const kept: ChatRequest = { ...request };
  for (const name of unsupported) delete kept[name];
  return { request: kept, unsupported };
}
