/**
 * Members Anthropic bills beyond the tokens the catalog prices: refused with a 400 naming them on
 * every route, Anthropic's own included, since a hold counts nothing else (D33). Their default
 * values bill nothing more and pass.
 */
import { GatewayError } from '../../../../errors';
import type { MessagesBody } from './schema';

/**
 * Server tools billed per use (searches, container time), or bringing back what they read as
 * input no hold bounds (a fetched page, an MCP tool's result), by their type's prefix.
 */
const BILLED_TOOLS = ['web_search_', 'code_execution_', 'web_fetch_', 'mcp_toolset'];

const refuse = (param: string, why: string): never => {
  throw new GatewayError('invalid_request', `${param} is not supported: ${why}`, { param });
};

export function refuseUnpriced(body: MessagesBody): void {
  const set = (name: string) => body[name] !== undefined && body[name] !== null;
  if (set('speed') && body.speed !== 'standard') refuse('speed', 'fast mode is billed at a premium the catalog does not price (omit it, or send "standard").');
  if (set('inference_geo') && body.inference_geo !== 'global') refuse('inference_geo', 'regional inference is billed above the catalog price (omit it, or send "global").');
  if (set('fallbacks')) refuse('fallbacks', "another model's answer would be billed at a price this request's hold did not count; name one model.");
  if (set('container')) refuse('container', 'code execution containers are billed by the hour, which the catalog does not price.');
  if (set('mcp_servers')) refuse('mcp_servers', "a remote MCP server's results come back as input no hold can bound; call the tools yourself and send their results.");
  (body.tools ?? []).forEach((tool, i) => {
    if (BILLED_TOOLS.some((prefix) => tool.type?.startsWith(prefix))) refuse(`tools.${i}`, `${tool.type} is billed per use or reads input no hold bounds, which the catalog does not price; /v1/scrape reads pages.`);
  });
}

/**
 * Betas that bill above the catalog's prices: the 1M-token context bills every token of a prompt
 * over 200K at a premium (and takes prompts longer than the catalog's context, past the hold's
 * bound). Left out of what Anthropic gets, so it enforces the priced context, and announced.
 */
const UNPRICED_BETA = /^context-1m-/;

/** The `anthropic-beta` list split into what is passed on and what is left out. */
export function splitBetas(header: string | null): { passed: string | null; leftOut: string[] } {
  if (header === null) return { passed: null, leftOut: [] };
  const betas = header.split(',').map((beta) => beta.trim()).filter(Boolean);
  const leftOut = betas.filter((beta) => UNPRICED_BETA.test(beta));
  if (leftOut.length === 0) return { passed: header, leftOut };
  const passed = betas.filter((beta) => !UNPRICED_BETA.test(beta));
  return { passed: passed.length ? passed.join(',') : null, leftOut };
}
