import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { toGatewayError } from '../errors';
import { renderError } from '../routes/error-response';
import { pageHeaders } from './security';
import { Shell } from './shell';

/**
 * The pages' error handler: a person's browser gets a page in the pages' frame and CSP, never the
 * API's JSON. Our own scripts and API clients (which do not ask for HTML) keep the JSON envelope,
 * so a script can show `error.message` where the person is.
 */
export function renderPageError(err: unknown, c: Context<AppEnv>): Response | Promise<Response> {
  if (!prefersHtml(c)) return renderError(err, c);
  const error = toGatewayError(err, c.get('requestId'));
  const title = error.status === 404 ? 'Not found' : error.status === 429 ? 'Too many attempts' : error.status >= 500 ? 'Something went wrong' : 'This did not work';
  return c.html(
    <Shell title={title}>
      <h1>{title}</h1>
      <p id="form-error" class="error" role="alert" data-code={error.code} data-param={error.options.param}>
        {error.message}
      </p>
      <p class="muted">
        Go back and try again. If it goes on, quote request id <code>{c.get('requestId')}</code>.
      </p>
    </Shell>,
    error.status,
    { ...pageHeaders(), ...error.headers() },
  );
}

/** A navigation or form post from a browser asks for HTML; `fetch()` and API clients do not by default. */
export function prefersHtml(c: Context<AppEnv>): boolean {
  return (c.req.header('Accept') ?? '').includes('text/html');
}
