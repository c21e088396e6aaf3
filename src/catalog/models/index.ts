import type { CatalogModel } from '../types';
import { alibaba } from './alibaba';
import { anthropic } from './anthropic';
import { blackForestLabs } from './black-forest-labs';
import { bytedance } from './bytedance';
import { deepseek } from './deepseek';
import { elevenlabs } from './elevenlabs';
import { gatewayModels } from './gateway';
import { google } from './google';
import { hidream } from './hidream';
import { ideogram } from './ideogram';
import { intfloat } from './intfloat';
import { kuaishou } from './kuaishou';
import { luma } from './luma';
import { meta } from './meta';
import { minimax } from './minimax';
import { mistral } from './mistral';
import { moonshotai } from './moonshotai';
import { openai } from './openai';
import { qwen } from './qwen';
import { recraft } from './recraft';
import { stabilityAi } from './stability-ai';
import { transcription } from './transcription';
import { xai } from './xai';
import { zai } from './zai';

/** Every model the gateway knows, grouped by maker. Order within a maker is the listing order. */
export const MODELS: readonly CatalogModel[] = [
  ...openai,
  ...anthropic,
  ...google,
  ...xai,
  ...deepseek,
  ...mistral,
  ...meta,
  ...qwen,
  ...moonshotai,
  ...zai,
  ...blackForestLabs,
  ...recraft,
  ...ideogram,
  ...stabilityAi,
  ...hidream,
  ...bytedance,
  ...kuaishou,
  ...minimax,
  ...luma,
  ...alibaba,
  ...elevenlabs,
  ...intfloat,
  ...transcription,
  ...gatewayModels,
];
