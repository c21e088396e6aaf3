import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { KiB, limitBody } from '../middleware/body-limit';
import { lazy } from '../routes/lazy/handler';

// Each page's module (its JSX, passkeys, Stripe and USDC code) is imported by its first request, not at startup.
const assets = () => import('./assets');
const claimPages = () => import('./claim/handlers');
const dashboardPages = () => import('./dashboard/handlers');
const keyPages = () => import('./dashboard/keys-handlers');
const ledgerPages = () => import('./dashboard/ledger-handlers');
const dashboardStyles = () => import('./dashboard/styles');
const securityPages = () => import('./dashboard/security-handlers');
const topUpPages = () => import('./dashboard/top-up-handlers');
const organizationPages = () => import('./dashboard/organizations-handlers');
const fundPages = () => import('./fund/handlers');
const signInPages = () => import('./signin/handlers');
const homePages = () => import('./home/handlers');
const modelPages = () => import('./models/handlers');

/**
 * The pages a person opens (the landing page, the model catalog, fund, claim, sign-in, dashboard) and their assets: one room with its
 * own error handler, so a browser is answered with a page (`renderPageError`), never the API's JSON.
 */
export function pagesApp() {
  const pages = new Hono<AppEnv>();
  pages
    .get('/', lazy(homePages, 'homePage'))
    .get('/models', lazy(modelPages, 'modelsPage'))
    .get('/fund/:token', lazy(fundPages, 'fundPage'))
    .get('/fund/:token/status', lazy(fundPages, 'fundStatus'))
    .post('/fund/:token/card', limitBody(4 * KiB), lazy(fundPages, 'fundCard'))
    .post('/fund/:token/usdc', limitBody(4 * KiB), lazy(fundPages, 'fundUsdc'))
    .get('/claim/:id', lazy(claimPages, 'claimPage'))
    .post('/claim/:id', limitBody(4 * KiB), lazy(claimPages, 'submitUserCode'))
    .post('/claim/:id/email', limitBody(4 * KiB), lazy(claimPages, 'submitEmailCode'))
    .post('/claim/:id/email/resend', limitBody(4 * KiB), lazy(claimPages, 'resendEmailCode'))
    .post('/claim/:id/passkey/options', limitBody(4 * KiB), lazy(claimPages, 'passkeyOptions'))
    .post('/claim/:id/passkey/verify', limitBody(32 * KiB), lazy(claimPages, 'passkeyVerify'))
    .get('/signin', lazy(signInPages, 'signInPage'))
    .post('/signin/options', limitBody(4 * KiB), lazy(signInPages, 'signInOptions'))
    .post('/signin/verify', limitBody(32 * KiB), lazy(signInPages, 'signInVerify'))
    .get('/dashboard', lazy(dashboardPages, 'dashboardPage'))
    .get('/dashboard/ledger', lazy(ledgerPages, 'ledgerPage'))
    .get('/dashboard/ledger.csv', lazy(ledgerPages, 'ledgerCsv'))
    .get('/dashboard/keys', lazy(keyPages, 'keysPage'))
    .post('/dashboard/keys', limitBody(32 * KiB), lazy(keyPages, 'createKey'))
    .get('/dashboard/keys/:id', lazy(keyPages, 'keyPage'))
    .post('/dashboard/keys/:id/name', limitBody(4 * KiB), lazy(keyPages, 'renameKey'))
    .post('/dashboard/keys/:id/guardrails', limitBody(32 * KiB), lazy(keyPages, 'saveGuardrails'))
    .post('/dashboard/keys/:id/rotate', limitBody(4 * KiB), lazy(keyPages, 'rotateKey'))
    .post('/dashboard/keys/:id/revoke', limitBody(4 * KiB), lazy(keyPages, 'revokeKey'))
    .get('/dashboard/top-up', lazy(topUpPages, 'topUpPage'))
    .post('/dashboard/top-up', limitBody(4 * KiB), lazy(topUpPages, 'enableTopUp'))
    .post('/dashboard/top-up/disable', limitBody(4 * KiB), lazy(topUpPages, 'disableTopUp'))
    .post('/dashboard/top-up/card', limitBody(4 * KiB), lazy(topUpPages, 'saveCard'))
    .get('/dashboard/organizations', lazy(organizationPages, 'organizationsPage'))
    .post('/dashboard/organizations', limitBody(4 * KiB), lazy(organizationPages, 'createOrganization'))
    .get('/dashboard/organizations/:id', lazy(organizationPages, 'organizationPage'))
    .post('/dashboard/organizations/:id/invites', limitBody(4 * KiB), lazy(organizationPages, 'createInvite'))
    .post('/dashboard/organizations/:id/invites/:invite/revoke', limitBody(4 * KiB), lazy(organizationPages, 'revokeInvite'))
    .post('/dashboard/organizations/:id/members/:member/approve', limitBody(4 * KiB), lazy(organizationPages, 'approveMember'))
    .post('/dashboard/organizations/:id/members/:member/remove', limitBody(4 * KiB), lazy(organizationPages, 'removeMember'))
    .get('/dashboard/security', async (c) => (await securityPages()).securityPage(c))
    .post('/dashboard/security/passkeys/revoke', limitBody(4 * KiB), lazy(securityPages, 'revokePasskey'))
    .post('/dashboard/security/sessions/revoke', limitBody(4 * KiB), lazy(securityPages, 'revokeSession'))
    .post('/dashboard/security/signout-everywhere', limitBody(4 * KiB), lazy(securityPages, 'signOutEverywhere'))
    .post('/dashboard/signout', limitBody(4 * KiB), lazy(dashboardPages, 'signOut'))
    .get('/assets/pages.css', lazy(assets, 'pagesCss'))
    .get('/assets/dashboard.css', lazy(dashboardStyles, 'dashboardCss'))
    .get('/assets/fund.js', lazy(assets, 'fundJs'))
    .get('/assets/webauthn.js', lazy(assets, 'webauthnJs'))
    .get('/assets/claim.js', lazy(assets, 'passkeyJs'));
  pages.onError(async (err, c) => (await import('./error-page')).renderPageError(err, c));
  return pages;
}
