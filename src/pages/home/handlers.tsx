import type { Context } from 'hono';
import { MODELS } from '../../catalog/models';
import type { AppEnv } from '../../env';
import { demoModelOn } from '../../providers/credentials';
import { publicBaseUrl } from '../../urls';
import { pageHeaders } from '../security';
import { HomePage } from './page';

/** `GET /`: the landing page, filled in with this deployment's base URL and a chat model it serves (the demo model while no provider is configured). */
export function homePage(c: Context<AppEnv>): Response | Promise<Response> {
  const exampleModel = demoModelOn(c.env) ? 'gateway/echo' : 'openai/gpt-4o-mini';
  return c.html(<HomePage base={publicBaseUrl(c)} models={MODELS.length} exampleModel={exampleModel} />, 200, pageHeaders());
}
