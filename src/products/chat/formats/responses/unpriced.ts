/**
 * What OpenAI bills beyond the tokens the catalog prices, or adds as input the hold cannot see
 * (D33), on every route, OpenAI's own included: members refused with a 400 naming them, and hosted
 * tools left out of the body (and announced), as a translated model leaves out every hosted tool.
 */
import { GatewayError } from '../../../../errors';
import type { ResponsesBody, ToolBody } from './schema';

const refuse = (param: string, why: string): never => {
  throw new GatewayError('invalid_request', `${param} is not supported: ${why}`, { param });
};

/**
 * Members served on no route, with why: a background response goes on generating (and billing)
 * after the answer that would be charged has left; a conversation and a stored prompt bring input
 * held on OpenAI's side, which no hold can count.
 */
export const UNSERVED: Record<string, string> = {
  background: 'background responses are not served; omit it (or send false) and stream instead.',
  conversation: 'conversations are not served; chain responses with previous_response_id.',
  prompt: 'stored prompt templates are not served; send the prompt as input.',
};

export function refuseUnpriced(body: ResponsesBody): void {
  for (const [member, why] of Object.entries(UNSERVED)) {
    const value = body[member];
    if (value !== undefined && value !== null && value !== false) refuse(member, why);
  }
  const tier = body.service_tier;
  if (tier !== undefined && tier !== null && tier !== 'auto' && tier !== 'default') {
    refuse('service_tier', 'requests run on the default tier, which is what the catalog prices (omit it, or send "default").');
  }
}

/**
 * Tools the client runs itself (their calls and outputs are tokens like any other): the only
 * ones OpenAI gets. Its hosted tools (`web_search`, `file_search`, `code_interpreter`,
 * `image_generation`, `mcp`, and any added later) are billed per call or bring back results as
 * input of unknown size: no hold bounds them.
 */
const CLIENT_TOOLS = new Set(['function', 'custom', 'namespace', 'local_shell', 'shell', 'apply_patch', 'computer_use_preview', 'computer']);

/** A tool of a `namespace` is one of its functions; a namespace keeps only client tools. */
function clientTool(tool: ToolBody): ToolBody | null {
  if (!CLIENT_TOOLS.has(tool.type)) return null;
  if (tool.type !== 'namespace' || !Array.isArray(tool.tools)) return tool;
  const tools = (tool.tools as ToolBody[]).filter((inner) => typeof inner === 'object' && inner !== null && CLIENT_TOOLS.has(inner.type));
  return tools.length ? { ...tool, tools } : null;
}

/**
 * The body OpenAI gets: without its hosted tools, and whether any was left out. A `tool_choice`
 * that names a left-out tool is a 400: the answer it asks for cannot come.
 */
export function withoutHostedTools(body: ResponsesBody): { body: ResponsesBody; leftOut: boolean } {
  if (!body.tools?.length) return { body, leftOut: false };
  const tools = body.tools.flatMap((tool) => clientTool(tool) ?? []);
  const leftOut = JSON.stringify(tools) !== JSON.stringify(body.tools);
  if (!leftOut) return { body, leftOut };
  const hosted = choiceTypes(body.tool_choice).find((type) => !CLIENT_TOOLS.has(type));
  if (hosted !== undefined) refuse('tool_choice', `${hosted} is a hosted tool, billed per call or bringing back input no hold bounds; offer a function instead.`);
  return { body: { ...body, tools }, leftOut };
}

/** The tool types a `tool_choice` names: its own, or those of an `allowed_tools` list. */
function choiceTypes(choice: unknown): string[] {
  if (typeof choice !== 'object' || choice === null) return [];
  const { type, tools } = choice as { type?: unknown; tools?: unknown };
  if (type === 'allowed_tools') return Array.isArray(tools) ? tools.flatMap((tool: { type?: unknown }) => (typeof tool?.type === 'string' ? [tool.type] : [])) : [];
  return typeof type === 'string' ? [type] : [];
}
