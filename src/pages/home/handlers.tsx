import type { Context } from 'hono';
import { MODELS } from '../../catalog/models';
import type { AppEnv } from '../../env';
import { publicBaseUrl } from '../../urls';
import { pageHeaders } from '../security';
import { HomePage } from './page';

/** `GET /`: the landing page, filled in with this deployment's base URL. */
export function homePage(c: Context<AppEnv>): Response | Promise<Response> {
  return c.html(<HomePage base={publicBaseUrl(c)} models={MODELS.length} />, 200, pageHeaders());
}
