import { DEFAULT_IMAGE_TOKENS, pdfTokens, UNBOUNDED_TOKENS, UNSEEN_DOCUMENT_TOKENS } from '../../estimate';
import type { ResponsesBody } from './schema';

type Json = Record<string, unknown>;

const PDF_DATA = 'data:application/pdf;base64,';
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What OpenAI may bill for its input beyond the bytes the hold sees (D33), in tokens: an item it
 * holds by id (`item_reference`, a reasoning item without its encrypted content) as the whole
 * context; a file it fetches or reads as text (a URL, a file id, a document that is not a PDF) as
 * every page it may render; and the images and PDFs the chat request does not carry (a tool
 * output's, an image by file id) at the most they can cost. A message's own image URLs and PDF
 * data are carried, and counted there.
 */
export function unseenTokens(input: ResponsesBody['input']): number {
  if (!Array.isArray(input)) return 0;
  let tokens = 0;
  for (const item of input) {
    if (item.type === 'item_reference' || (item.type === 'reasoning' && typeof item.encrypted_content !== 'string')) return UNBOUNDED_TOKENS;
    tokens += parts(item, carriedParts(item));
  }
  return tokens;
}

/** A message's parts when the chat request carries them all (`to-chat.ts` takes the message whole or not at all). */
function carriedParts(item: Json): Set<unknown> {
  if ((item.type ?? 'message') !== 'message' || !Array.isArray(item.content)) return new Set();
  const carried = (part: unknown) =>
    isObject(part) &&
    (['input_text', 'output_text', 'refusal'].includes(String(part.type)) ||
      (part.type === 'input_image' && typeof part.image_url === 'string' && part.image_url !== '') ||
      (part.type === 'input_file' && typeof part.file_data === 'string' && part.file_data.startsWith(PDF_DATA)));
  return item.content.every(carried) ? new Set(item.content) : new Set();
}

/** The files and images anywhere inside `value`, but those the chat request carries. */
function parts(value: unknown, carried: Set<unknown>): number {
  if (Array.isArray(value)) return value.reduce<number>((sum, inner) => sum + parts(inner, carried), 0);
  if (!isObject(value)) return 0;
  const inChat = carried.has(value);
  switch (value.type) {
    case 'input_file': {
      const data = typeof value.file_data === 'string' ? value.file_data : null;
      if (data?.startsWith(PDF_DATA)) return inChat ? 0 : pdfTokens(data.slice(PDF_DATA.length));
      return UNSEEN_DOCUMENT_TOKENS;
    }
    case 'input_image':
    case 'computer_screenshot':
      return inChat && typeof value.image_url === 'string' ? 0 : DEFAULT_IMAGE_TOKENS;
    default:
      return Object.values(value).reduce<number>((sum, inner) => sum + parts(inner, carried), 0);
  }
}
