import { describe, expect, it } from 'vitest';
import type { ChatModel } from '../../catalog/types';
import type { ChatRequest } from '../../providers/chat/types';
import { checkContent, isBase64 } from './content';
import { measurePrompt } from './estimate';

const model = { id: 'openai/gpt-4o', vision: true, pdf: true, tools: true, contextLength: 128_000 } as ChatModel;
const withPdf = (fileData: string): ChatRequest => ({
  model: model.id,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarise' }, { type: 'file', file: { filename: 'a.pdf', file_data: fileData } }] }],
});

describe('checkContent: PDF data', () => {
  it.each(['@@@@', 'JVBERi0xLjQK!', 'JVBERi0xL', 'JV=BERi0=', 'JVBE\nRi0x', 'AB=', 'A=', '==', 'AAAAA==', 'A==='])('refuses %j as a 400 naming the part, before the hold decodes it', (data) => {
    const request = withPdf(`data:application/pdf;base64,${data}`);
    expect(() => checkContent(request, model)).toThrow(expect.objectContaining({ code: 'invalid_request', options: { param: 'messages.0.content.1.file.file_data' } }));
  });

  it.each(['', 'JVBERi0xLjQK', 'JVBERi0=', 'JVBERi0xLg==', 'JVBERi0', 'JVBERi'])('accepts %j, which the hold estimate then decodes', (data) => {
    expect(isBase64(data)).toBe(true);
    const request = withPdf(`data:application/pdf;base64,${data}`);
    expect(() => checkContent(request, model)).not.toThrow();
    expect(measurePrompt(request, model).bound).toBeGreaterThan(3_000);
  });
});
