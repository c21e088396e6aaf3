import type { ChatModel } from '../../catalog/types';
import type { ChatRequest, ContentPart } from '../../providers/chat/types';

/**
 * What an image may cost where the catalog says nothing: above OpenAI's high-detail patch models
 * (1,536 patches times up to 2.46 for gpt-4.1-nano: 3,779), Claude's ~1,600 and Gemini 3's 1,120.
 */
export const DEFAULT_IMAGE_TOKENS = 4_000;
/** Per PDF page: the upstreams bill each page's text plus its page image. */
const TOKENS_PER_PDF_PAGE = 3_000;
/** Pages assumed when a PDF hides its page objects (compressed object streams, escaped names): Claude's limit. */
const MAX_PDF_PAGES = 100;
/** A document the upstream fetches itself (a URL, a file id): as many pages as it takes. */
export const UNSEEN_DOCUMENT_TOKENS = MAX_PDF_PAGES * TOKENS_PER_PDF_PAGE;

/** An input only the upstream can size (an item it holds by id): the hold counts the whole context. */
export const UNBOUNDED_TOKENS = 1_000_000_000;

/** What the upstream may bill for a base64 PDF: every page it renders. */
export const pdfTokens = (base64: string) => pdfPages(base64) * TOKENS_PER_PDF_PAGE;
/** The typical image, for the estimate (D6 billing when nothing is reported): Claude's largest. */
const TYPICAL_IMAGE_TOKENS = 1_600;
/** Role markers and separators the upstream adds around each message (OpenAI: 3 or 4). */
const TOKENS_PER_MESSAGE = 8;
/** The reply's priming and whatever framing an upstream adds once per request. */
const TOKENS_PER_REQUEST = 16;
/** The instructions an upstream adds when tools are offered (Anthropic: 346 for `auto`). */
const TOKENS_FOR_TOOLS = 512;
/** Members that are never text the model reads: counted by none of the measures. */
const NOT_PROMPT = new Set(['model', 'stream', 'stream_options', 'n', 'max_tokens', 'max_completion_tokens', 'prediction']);

const encoder = new TextEncoder();

/** Tokens in `text`, estimated at 4 characters per token (no tokenizer on the hot path). */
export function textTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** UTF-8 bytes of `text`: a byte-level BPE token is at least one byte, so no text has more tokens. */
export function utf8Bytes(text: string): number {
  // Cheaper than encoding for the usual all-ASCII text.
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return encoder.encode(text).length;
  return text.length;
}

/**
 * The pages of a base64 PDF: its `/Type /Page` objects, at least one; MAX_PDF_PAGES when they
 * may be hidden from that count (object streams, `#`-escaped names), since the upstream bills
 * every page it renders.
 */
export function pdfPages(base64: string): number {
  const bytes = atob(base64);
  if (/\/ObjStm|\/[A-Za-z]*#[0-9A-Fa-f]{2}/.test(bytes)) return MAX_PDF_PAGES;
  return Math.max(1, bytes.match(/\/Type\s*\/Page(?!s)/g)?.length ?? 1);
}

export interface PromptSize {
  /**
   * At least what the upstream can bill for the prompt (D33): every UTF-8 byte of the text it
   * receives, fixed allowances for images and files, and at most the model's context length
   * (an upstream refuses a longer prompt). The hold counts this.
   */
  bound: number;
  /** The likely count (4 characters per token): the context check, and D6's stand-in when the upstream reports nothing. */
  estimate: number;
}

/** Measures a chat request's prompt for its hold and its context check. */
export function measurePrompt(request: ChatRequest, model: ChatModel): PromptSize {
  const imageTokens = model.imageTokens ?? DEFAULT_IMAGE_TOKENS;
  const size = { bound: TOKENS_PER_REQUEST + (request.tools?.length ? TOKENS_FOR_TOOLS : 0), estimate: 0 };
  const add = (text: string) => {
    size.bound += utf8Bytes(text);
    size.estimate += textTokens(text);
  };
  const part = (content: ContentPart) => {
    if (content.type === 'text') add(content.text);
    else if (content.type === 'image_url') {
      size.bound += imageTokens;
      size.estimate += Math.min(imageTokens, TYPICAL_IMAGE_TOKENS);
    } else {
      const data = content.file.file_data;
      const tokens = pdfTokens(data.slice(data.indexOf(',') + 1));
      size.bound += tokens;
      size.estimate += tokens;
      add(content.file.filename);
    }
  };
  for (const message of request.messages) {
    size.bound += TOKENS_PER_MESSAGE;
    size.estimate += TOKENS_PER_MESSAGE;
    for (const [name, value] of Object.entries(message)) {
      if (name === 'content' && Array.isArray(value)) (value as ContentPart[]).forEach(part);
      else if (name !== 'role') walkText(value, add);
    }
  }
  for (const [name, value] of Object.entries(request)) {
    if (name !== 'messages' && !NOT_PROMPT.has(name)) {
      add(name);
      walkText(value, add);
    }
  }
  return { bound: Math.min(size.bound, model.contextLength), estimate: size.estimate };
}

/**
 * Every string, key and number inside `value`: what an upstream may render into the prompt
 * (tool schemas, `response_format`, names, tool calls, unknown members passed on).
 */
function walkText(value: unknown, add: (text: string) => void): void {
  if (typeof value === 'string') add(value);
  else if (typeof value === 'number' || typeof value === 'boolean') add(String(value));
  else if (Array.isArray(value)) for (const item of value) walkText(item, add);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      add(key);
      walkText(item, add);
    }
  }
}

/** Output tokens a `prediction` may add (OpenAI bills rejected prediction tokens as output): at most its bytes. */
export function predictionTokens(request: ChatRequest): number {
  let tokens = 0;
  walkText(request.prediction, (text) => (tokens += utf8Bytes(text)));
  return tokens;
}
