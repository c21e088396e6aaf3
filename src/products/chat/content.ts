import type { ChatModel } from '../../catalog/types';
import { GatewayError } from '../../errors';
import type { ChatRequest } from '../../providers/chat/types';

export const MAX_PDF_BYTES = 2 * 1024 * 1024;
export const MAX_FILE_PARTS = 4;
const PDF_PREFIX = 'data:application/pdf;base64,';

/** Base64 as `atob` decodes it, without whitespace: the alphabet, then at most two `=`. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Whether `text` is base64 that `atob` decodes (the hold's page count decodes it): never a lone
 * last character, and padding only on a whole number of 4-character groups.
 */
export function isBase64(text: string): boolean {
  const padded = text.endsWith('=');
  return BASE64.test(text) && (padded ? text.length % 4 === 0 : text.length % 4 !== 1);
}

/** Decoded size of base64 text without decoding it. */
export function base64Bytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/**
 * The spec's multimodal rules: images only to vision models (https or data URI), PDFs only to
 * models that read them, at most 2 MB decoded each and 4 per request.
 */
export function checkContent(request: ChatRequest, model: ChatModel): void {
  let files = 0;
  request.messages.forEach((message, m) => {
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part, p) => {
      const param = `messages.${m}.content.${p}`;
      if (part.type === 'image_url') {
        if (!model.vision) throw new GatewayError('unsupported_content', `${model.id} does not read images.`, { param });
        const url = part.image_url.url;
        if (!url.startsWith('https://') && !/^data:image\/[a-z0-9.+-]+;base64,/i.test(url)) {
          throw new GatewayError('invalid_request', 'image_url.url must be an https URL or a base64 image data URI.', { param: `${param}.image_url.url` });
        }
      } else if (part.type === 'file') {
        if (!model.pdf) throw new GatewayError('unsupported_content', `${model.id} does not read PDF files.`, { param });
        if (++files > MAX_FILE_PARTS) throw new GatewayError('invalid_request', `At most ${MAX_FILE_PARTS} file parts per request.`, { param });
        const data = part.file.file_data.slice(PDF_PREFIX.length);
        if (base64Bytes(data) > MAX_PDF_BYTES) {
          throw new GatewayError('invalid_request', 'A PDF may be at most 2 MB decoded.', { param: `${param}.file.file_data` });
        }
        if (!isBase64(data)) throw new GatewayError('invalid_request', 'file_data is not valid base64.', { param: `${param}.file.file_data` });
      }
    });
  });
  if (request.tools?.length && !model.tools) throw new GatewayError('invalid_request', `${model.id} does not support tools.`, { param: 'tools' });
}
