import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { KiB, limitBody } from '../middleware/body-limit';
import { fundJs, pagesCss, passkeyJs, webauthnJs } from './assets';
import * as claimPages from './claim/handlers';
import * as dashboardPages from './dashboard/handlers';
import * as keyPages from './dashboard/keys-handlers';
import * as ledgerPages from './dashboard/ledger-handlers';
import * as organizationPages from './dashboard/organizations-handlers';
import { dashboardCss } from './dashboard/styles';
import * as securityPages from './dashboard/security-handlers';
import * as topUpPages from './dashboard/top-up-handlers';
import { renderPageError } from './error-page';
import * as fundPages from './fund/handlers';
import * as signInPages from './signin/handlers';

/**
 * The pages a person opens (fund, claim, sign-in, dashboard) and their assets: one room with its
 * own error handler, so a browser is answered with a page (`renderPageError`), never the API's JSON.
 */
export function pagesApp() {
  const pages = new Hono<AppEnv>();
  pages
    .get('/fund/:token', fundPages.fundPage)
    .get('/fund/:token/status', fundPages.fundStatus)
    .post('/fund/:token/card', limitBody(4 * KiB), fundPages.fundCard)
    .post('/fund/:token/usdc', limitBody(4 * KiB), fundPages.fundUsdc)
    .get('/claim/:id', claimPages.claimPage)
    .post('/claim/:id', limitBody(4 * KiB), claimPages.submitUserCode)
    .post('/claim/:id/email', limitBody(4 * KiB), claimPages.submitEmailCode)
    .post('/claim/:id/email/resend', limitBody(4 * KiB), claimPages.resendEmailCode)
    .post('/claim/:id/passkey/options', limitBody(4 * KiB), claimPages.passkeyOptions)
    .post('/claim/:id/passkey/verify', limitBody(32 * KiB), claimPages.passkeyVerify)
    .get('/signin', signInPages.signInPage)
    .post('/signin/options', limitBody(4 * KiB), signInPages.signInOptions)
    .post('/signin/verify', limitBody(32 * KiB), signInPages.signInVerify)
    .get('/dashboard', dashboardPages.dashboardPage)
    .get('/dashboard/ledger', ledgerPages.ledgerPage)
    .get('/dashboard/ledger.csv', ledgerPages.ledgerCsv)
    .get('/dashboard/keys', keyPages.keysPage)
    .post('/dashboard/keys', limitBody(32 * KiB), keyPages.createKey)
    .get('/dashboard/keys/:id', keyPages.keyPage)
    .post('/dashboard/keys/:id/name', limitBody(4 * KiB), keyPages.renameKey)
    .post('/dashboard/keys/:id/guardrails', limitBody(32 * KiB), keyPages.saveGuardrails)
    .post('/dashboard/keys/:id/rotate', limitBody(4 * KiB), keyPages.rotateKey)
    .post('/dashboard/keys/:id/revoke', limitBody(4 * KiB), keyPages.revokeKey)
    .get('/dashboard/top-up', topUpPages.topUpPage)
    .post('/dashboard/top-up', limitBody(4 * KiB), topUpPages.enableTopUp)
    .post('/dashboard/top-up/disable', limitBody(4 * KiB), topUpPages.disableTopUp)
    .post('/dashboard/top-up/card', limitBody(4 * KiB), topUpPages.saveCard)
    .get('/dashboard/organizations', organizationPages.organizationsPage)
    .post('/dashboard/organizations', limitBody(4 * KiB), organizationPages.createOrganization)
    .get('/dashboard/organizations/:id', organizationPages.organizationPage)
    .post('/dashboard/organizations/:id/invites', limitBody(4 * KiB), organizationPages.createInvite)
    .post('/dashboard/organizations/:id/invites/:invite/revoke', limitBody(4 * KiB), organizationPages.revokeInvite)
    .post('/dashboard/organizations/:id/members/:member/approve', limitBody(4 * KiB), organizationPages.approveMember)
    .post('/dashboard/organizations/:id/members/:member/remove', limitBody(4 * KiB), organizationPages.removeMember)
    .get('/dashboard/security', (c) => securityPages.securityPage(c))
    .post('/dashboard/security/passkeys/revoke', limitBody(4 * KiB), securityPages.revokePasskey)
    .post('/dashboard/security/sessions/revoke', limitBody(4 * KiB), securityPages.revokeSession)
    .post('/dashboard/security/signout-everywhere', limitBody(4 * KiB), securityPages.signOutEverywhere)
    .post('/dashboard/signout', limitBody(4 * KiB), dashboardPages.signOut)
    .get('/assets/pages.css', pagesCss)
    .get('/assets/dashboard.css', dashboardCss)
    .get('/assets/fund.js', fundJs)
    .get('/assets/webauthn.js', webauthnJs)
    .get('/assets/claim.js', passkeyJs);
  pages.onError(renderPageError);
  return pages;
}
