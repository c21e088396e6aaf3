import { openAIShapedTranscription } from '../openai-compatible/transcription';

/** OpenAI's transcriptions (whisper-1, gpt-4o-transcribe, gpt-4o-mini-transcribe). */
export const openaiTranscription = openAIShapedTranscription();
