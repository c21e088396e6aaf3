import { openAIShapedTranscription } from '../openai-compatible/transcription';

/** Groq's Whisper (https://console.groq.com/docs/speech-to-text): OpenAI's shape under `/openai/v1`. */
export const groqTranscription = openAIShapedTranscription();
