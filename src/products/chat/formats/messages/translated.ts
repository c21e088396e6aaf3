/**
 * What a Messages body asks that only Anthropic can do, for a translated (non-Anthropic) route:
 * a 400 naming the member where leaving it out would change the answer's shape or lose content
 * (D30), else its name for `x-service-unsupported-params`. The native route never asks this.
 */
import { GatewayError } from '../../../../errors';
import { isBlock } from './to-chat';
import type { MessagesBlock, MessagesBody } from './schema';

const refuse = (param: string, why: string): never => {
  throw new GatewayError('invalid_request', `${param}: ${why} on this model, which Anthropic does not serve; only Anthropic models take it.`, { param });
};

/** The members a translated route leaves out and announces; throws the 400 for those it cannot leave out. */
export function translationIssues(body: MessagesBody): string[] {
  const announced = new Set<string>();
  const cached = (value: { cache_control?: unknown }) => {
    if (value.cache_control !== undefined) announced.add('cache_control');
  };
  if (body.metadata !== undefined) announced.add('metadata');
  if (Array.isArray(body.system)) body.system.forEach(cached);
  (body.tools ?? []).forEach((tool, i) => {
    cached(tool);
    if ((tool.type !== undefined && tool.type !== 'custom') || tool.input_schema === undefined) refuse(`tools.${i}`, `the Anthropic-defined tool ${tool.type ?? tool.name} is not available`);
  });
  body.messages.forEach((message, i) => {
    if (typeof message.content === 'string') return;
    message.content.forEach((block, j) => {
      cached(block);
      const param = `messages.${i}.content.${j}`;
      if (message.role === 'assistant') {
        if (block.type === 'thinking' || block.type === 'redacted_thinking') announced.add('thinking');
        else if (block.type !== 'text' && block.type !== 'tool_use') refuse(param, `a ${block.type} block cannot be carried`);
        return;
      }
      if (block.type === 'tool_result') toolResultContent(block, param);
      else userBlock(block, param);
    });
  });
  return [...announced];
}

function userBlock(block: MessagesBlock, param: string): void {
  const source = isBlock(block.source) ? block.source : undefined;
  switch (block.type) {
    case 'text':
      return;
    case 'image':
      if (source?.type === 'base64' || source?.type === 'url') return;
      return refuse(`${param}.source`, 'only base64 and url image sources are carried');
    case 'document':
      if ((source?.type === 'base64' && source.media_type === 'application/pdf') || source?.type === 'text') return;
      if (source?.type === 'content' && Array.isArray(source.content)) {
        source.content.forEach((part: unknown, k: number) => (isBlock(part) ? userBlock(part, `${param}.source.content.${k}`) : undefined));
        return;
      }
      return refuse(`${param}.source`, 'only base64 PDF, text and content document sources are carried');
    default:
      return refuse(param, `a ${block.type} block cannot be carried`);
  }
}

/** Chat's tool messages carry text only. */
function toolResultContent(block: MessagesBlock, param: string): void {
  if (!Array.isArray(block.content)) return;
  block.content.forEach((part: unknown, k: number) => {
    if (!isBlock(part) || part.type !== 'text') refuse(`${param}.content.${k}`, 'a tool result other than text cannot be carried');
  });
}
