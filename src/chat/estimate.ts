import type { ChatRequest } from '../providers/chat/types';

/** A generous allowance per image: Claude's largest images cost about 1,600 tokens, OpenAI's ~1,100. */
const TOKENS_PER_IMAGE = 1_600;
/** Per PDF page: the upstreams bill each page's text plus its page image. */
const TOKENS_PER_PDF_PAGE = 3_000;
const TOKENS_PER_MESSAGE = 4;

/** Tokens in `text`, estimated at 4 characters per token (no tokenizer on the hot path). */
export function textTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Counts `/Type /Page` objects in a base64 PDF; at least one page. */
export function pdfPages(base64: string): number {
  const bytes = atob(base64);
  return Math.max(1, bytes.match(/\/Type\s*\/Page(?!s)/g)?.length ?? 1);
}

/**
 * The prompt's tokens, estimated for the hold before the upstream counts them (D5), and for
 * billing a stream whose upstream never reported usage (D6). Errs on the high side.
 */
export function estimatePromptTokens(request: ChatRequest): number {
  let tokens = 0;
  for (const message of request.messages) {
    tokens += TOKENS_PER_MESSAGE;
    if (typeof message.content === 'string') tokens += textTokens(message.content);
    else if (Array.isArray(message.content)) {
      for (const part of message.content) {
        if (part.type === 'text') tokens += textTokens(part.text);
        else if (part.type === 'image_url') tokens += TOKENS_PER_IMAGE;
        else tokens += pdfPages(part.file.file_data.slice(part.file.file_data.indexOf(',') + 1)) * TOKENS_PER_PDF_PAGE;
      }
    }
    if (message.tool_calls) tokens += textTokens(JSON.stringify(message.tool_calls));
  }
  if (request.tools) tokens += textTokens(JSON.stringify(request.tools));
  return tokens;
}
