/**
 * What a native (Anthropic) upstream receives beyond what the chat request carries, in UTF-8
 * bytes, which the hold counts as prompt tokens (D33): thinking blocks of earlier turns, blocks
 * with no chat counterpart, and the members of carried blocks that chat has no room for
 * (`cache_control`, `citations`, a tool's `type`, ...); and what Anthropic fetches itself (a
 * document or image by URL or file id), at the most it can bill.
 */
import { DEFAULT_IMAGE_TOKENS, pdfTokens, UNSEEN_DOCUMENT_TOKENS, utf8Bytes } from '../../estimate';
import type { MessagesBody } from './schema';

/** The members of each carried block that the chat request holds; everything else is uncarried. */
const CARRIED: Record<string, Set<string>> = {
  text: new Set(['type', 'text']),
  image: new Set(['type', 'source']),
  document: new Set(['type', 'source', 'title']),
  tool_use: new Set(['type', 'id', 'name', 'input']),
  tool_result: new Set(['type', 'tool_use_id', 'content', 'is_error']),
};
const TOOL_CARRIED = new Set(['name', 'description', 'input_schema']);

const bytesOf = (value: unknown) => utf8Bytes(JSON.stringify(value));

function rest(value: Record<string, unknown>, carried: Set<string>): number {
  const left = Object.entries(value).filter(([name, member]) => !carried.has(name) && member !== undefined);
  return left.length === 0 ? 0 : bytesOf(Object.fromEntries(left));
}

/**
 * What Anthropic may bill for a document or an image beyond its bytes, where the chat request
 * does not count it (`inChat` false: a tool result's blocks): every page of a PDF, or the dearest
 * image; and wherever it fetches the content itself (a document by URL or file id, an image by
 * file id), every page it may render.
 */
function unseenTokens(block: Record<string, unknown>, inChat: boolean): number {
  const source = typeof block.source === 'object' && block.source !== null ? (block.source as { type?: unknown; data?: unknown }) : {};
  if (block.type === 'document') {
    if (source.type === 'url' || source.type === 'file') return UNSEEN_DOCUMENT_TOKENS;
    return !inChat && source.type === 'base64' && typeof source.data === 'string' ? pdfTokens(source.data) : 0;
  }
  if (block.type === 'image') return !inChat || source.type === 'file' ? DEFAULT_IMAGE_TOKENS : 0;
  return 0;
}

export function uncarriedBytes(body: MessagesBody): number {
  let bytes = 0;
  for (const message of body.messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      const carried = CARRIED[block.type];
      bytes += (carried ? rest(block, carried) : bytesOf(block)) + unseenTokens(block, true);
      // A tool result's blocks other than text (images, documents) reach only Anthropic.
      if (block.type === 'tool_result' && Array.isArray(block.content)) {
        for (const part of block.content as unknown[]) {
          if (typeof part === 'object' && part !== null && (part as { type?: unknown }).type !== 'text') bytes += bytesOf(part) + unseenTokens(part as Record<string, unknown>, false);
        }
      }
    }
  }
  if (Array.isArray(body.system)) for (const block of body.system) bytes += rest(block, CARRIED.text!);
  for (const tool of body.tools ?? []) bytes += rest(tool, TOOL_CARRIED);
  // Metadata is carried by no chat member; Anthropic does not render it, but the bound stays a bound.
  if (body.metadata !== undefined) bytes += bytesOf(body.metadata);
  return bytes;
}
