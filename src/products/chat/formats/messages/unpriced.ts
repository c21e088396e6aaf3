/**
 * Members Anthropic bills beyond the tokens the catalog prices: refused with a 400 naming them on
 * every route, Anthropic's own included, since a hold counts nothing else (D33). Their default
 * values bill nothing more and pass.
 */
import { GatewayError } from '../../../../errors';
import type { MessagesBody } from './schema';

/** Server tools billed per use (searches, container time), by their type's prefix. */
const BILLED_TOOLS = ['web_search_', 'code_execution_'];

const refuse = (param: string, why: string): never => {
  throw new GatewayError('invalid_request', `${param} is not supported: ${why}`, { param });
};

export function refuseUnpriced(body: MessagesBody): void {
  const set = (name: string) => body[name] !== undefined && body[name] !== null;
  if (set('speed') && body.speed !== 'standard') refuse('speed', 'fast mode is billed at a premium the catalog does not price (omit it, or send "standard").');
  if (set('inference_geo') && body.inference_geo !== 'global') refuse('inference_geo', 'regional inference is billed above the catalog price (omit it, or send "global").');
  if (set('fallbacks')) refuse('fallbacks', "another model's answer would be billed at a price this request's hold did not count; name one model.");
  if (set('container')) refuse('container', 'code execution containers are billed by the hour, which the catalog does not price.');
  (body.tools ?? []).forEach((tool, i) => {
    if (BILLED_TOOLS.some((prefix) => tool.type?.startsWith(prefix))) refuse(`tools.${i}`, `${tool.type} is billed per use, which the catalog does not price; /v1/scrape reads pages.`);
  });
}
