import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { pageHeaders } from '../security';
import { DashboardLayout, type DashboardTab } from './layout';

/**
 * The dashboard's 404: what a URL names is not this account's (another account's key id reads
 * exactly as one that never existed).
 */
export function notFoundPage(c: Context<AppEnv>, page: { shortId: string; csrf: string; tab: DashboardTab; message: string }): Response | Promise<Response> {
  return c.html(
    <DashboardLayout title="Not found" shortId={page.shortId} csrf={page.csrf} tab={page.tab}>
      <section aria-labelledby="not-found-title">
        <h2 id="not-found-title">Not found</h2>
        <p id="form-error" class="error" data-code="not_found">
          {page.message}
        </p>
      </section>
    </DashboardLayout>,
    404,
    pageHeaders(),
  );
}
