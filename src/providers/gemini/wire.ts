/**
 * The slice of Google's Generative Language API (v1beta `generateContent`) the gateway speaks.
 * Field names as on the REST wire (camelCase JSON of the protobuf messages).
 */

export interface GeminiFunctionCall {
  name: string;
  args?: Record<string, unknown>;
}

export interface GeminiFunctionResponse {
  name: string;
  response: Record<string, unknown>;
}

/** One part of a content; exactly one of the data members is set. */
export interface GeminiPart {
  text?: string;
  /** A thought summary, not answer text (only present when thoughts are requested). */
  thought?: boolean;
  /** Opaque base64 bytes that must go back on the same part in the next request. */
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
}

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: { text: string }[] };
  generationConfig?: {
    temperature?: number;
    topP?: number;
    maxOutputTokens?: number;
    stopSequences?: string[];
  };
  tools?: { functionDeclarations: GeminiFunctionDeclaration[] }[];
  toolConfig?: {
    functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] };
  };
}

export interface GeminiUsageMetadata {
  /** The whole prompt, cached part included. */
  promptTokenCount?: number;
  cachedContentTokenCount?: number;
  /** Answer tokens, thinking excluded. */
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
  totalTokenCount?: number;
}

export interface GeminiCandidate {
  content?: { role?: string; parts?: GeminiPart[] };
  finishReason?: string;
  index?: number;
}

/** A `generateContent` answer, and each `data:` frame of `streamGenerateContent?alt=sse`. */
export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
}

/** Google's error envelope (`google.rpc.Status` as JSON). */
export interface GoogleErrorBody {
  error: { code?: number; message?: string; status?: string };
}

export function isGoogleError(body: unknown): body is GoogleErrorBody {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const { error } = body as { error: unknown };
  return typeof error === 'object' && error !== null;
}
