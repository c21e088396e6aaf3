import type { Context } from 'hono';
import { renderSVG } from 'uqr';
import { AccountClient } from '../../accounts/account-client';
import { FUND_TOKEN_PATTERN, sha256Hex } from '../../accounts/credentials';
import { database } from '../../db';
import { accountOfFundToken } from '../../db/accounts';
import { countFundingSession } from '../../db/ip-counters';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { openCardCheckout, UNCLAIMED_CARD_TOTAL_MICROS } from '../../funding/card-checkout';
import { openUsdcIntent, usdcAmount, type UsdcIntent } from '../../funding/intents';
import { stripeRail } from '../../funding/stripe';
import { usdcConfig } from '../../funding/usdc-config';
import { formatUsd, MICROS_PER_USD } from '../../money';
import { clientIpKey } from '../../client-ip';
import { publicBaseUrl } from '../../urls';
import { spendPeriods } from '../../../durable-objects/account/periods';
import type { AccountSnapshot } from '../../../durable-objects/account/types';
import { CARD_PROCESSOR_DOWN } from '../card-refusals';
import { checkCsrf, csrfToken, pageHeaders } from '../security';
import { displayUsd } from '../shell';
import { FundPage, NotFoundPage, type CardSection, type UsdcSection } from './page';
import { readFormPost } from '../form-post';

/** Card limits (spec "Limits"): unclaimed accounts 5 to 250 USD a payment, 500 in all; claimed 5 to 10,000. */
const CARD_MIN_USD = 5;
const UNCLAIMED_CARD_MAX_USD = 250;
const CLAIMED_CARD_MAX_USD = 10_000;
/** D3: funding sessions a fund page may start per IP per day (card checkouts and USDC intents). */
export const FUNDING_SESSIONS_PER_IP_PER_DAY = 30;

interface FundTarget {
  token: string;
  accountId: string;
  account: AccountSnapshot;
}

/** The account a fund link names; undefined for a malformed or unknown token, or a deleted account. */
async function fundTarget(c: Context<AppEnv>): Promise<FundTarget | undefined> {
  const token = c.req.param('token') ?? '';
  if (!FUND_TOKEN_PATTERN.test(token)) return undefined;
  const accountId = await accountOfFundToken(database(c.env), await sha256Hex(token));
  if (!accountId) return undefined;
  const account = await (await new AccountClient(c.env, accountId).direct()).view();
  return account ? { token, accountId, account } : undefined;
}

function notFound(c: Context<AppEnv>): Response | Promise<Response> {
  return c.html(<NotFoundPage />, 404, pageHeaders());
}

/** `100000000` -> `"100.00"`: a whole-cent amount as the page shows it. */
const usdCents = (micros: number) => formatUsd(micros).replace(/0000$/, '');

function cardSection(env: Env, account: AccountSnapshot, extra: Partial<CardSection> = {}): CardSection {
  const unclaimed = !account.claimed;
  return {
    enabled: stripeRail(env) !== undefined,
    minUsd: CARD_MIN_USD,
    maxUsd: unclaimed ? UNCLAIMED_CARD_MAX_USD : CLAIMED_CARD_MAX_USD,
    remainingUsd: account.unclaimedFundingRemainingMicros === null ? null : usdCents(account.unclaimedFundingRemainingMicros),
    ...extra,
  };
}

function render(
  c: Context<AppEnv>,
  target: FundTarget,
  parts: { card?: Partial<CardSection>; usdc?: Partial<UsdcSection>; notice?: string },
  status: 200 | 400 | 429 | 502 = 200,
): Response | Promise<Response> {
  const rail = stripeRail(c.env);
  const page = (
    <FundPage
      token={target.token}
      shortId={target.accountId.slice(0, 8)}
      createdAt={new Date(target.account.createdAt).toISOString().slice(0, 10)}
      balanceUsd={displayUsd(target.account.balanceMicros)}
      balanceMicros={target.account.balanceMicros}
      csrf={csrfToken(c, `/fund/${target.token}`)}
      notice={parts.notice}
      suspended={target.account.suspended !== null}
      card={cardSection(c.env, target.account, parts.card)}
      usdc={{ enabled: usdcConfig(c.env) !== undefined, ...parts.usdc }}
    />
  );
  return c.html(page, status, pageHeaders(rail ? [rail.checkoutOrigin] : []));
}

/** `GET /fund/<token>`: the no-login fund page (D22). */
export async function fundPage(c: Context<AppEnv>): Promise<Response> {
  const target = await fundTarget(c);
  if (!target) return notFound(c);
  const notice = c.req.query('paid') !== undefined ? 'Thank you: the payment went through. The balance rises as soon as the card network confirms it.' : undefined;
  return render(c, target, { notice });
}

/** `GET /fund/<token>/status`: the balance, for the page's live status (JSON, no secrets). */
export async function fundStatus(c: Context<AppEnv>): Promise<Response> {
  const target = await fundTarget(c);
  if (!target) throw new GatewayError('not_found', 'No such fund link.');
  return c.json({ balance_usd: formatUsd(target.account.balanceMicros) }, 200, { 'Cache-Control': 'no-store' });
}

/**
 * `POST /fund/<token>/card`: checks the amount against the caps (unclaimed accounts: $5 to $250 a
 * payment and $500 in all, counting payments still open, in one D1 statement), makes a Stripe
 * Checkout Session and sends the payer there. Refusals are inline form messages (spec).
 */
export async function fundCard(c: Context<AppEnv>): Promise<Response> {
  const target = await fundTarget(c);
  if (!target) return notFound(c);
  const rail = stripeRail(c.env);
  if (!rail) return render(c, target, { card: { error: 'Card payments are not available on this gateway.' } }, 400);
  const form = await readFormPost(c);
  checkCsrf(c, form.csrf);
  const amount = typeof form.amount_usd === 'string' ? form.amount_usd.trim() : '';
  const cents = /^\d{1,6}(\.\d{1,2})?$/.test(amount) ? Math.round(Number(amount) * 100) : NaN;
  const section = cardSection(c.env, target.account, { amount });
  const refuse = (error: string, status: 400 | 429 | 502 = 400) => render(c, target, { card: { amount, error } }, status);
  if (!Number.isSafeInteger(cents)) return refuse('Enter an amount in dollars, such as 25 or 25.50.');
  if (cents < CARD_MIN_USD * 100) return refuse(`The minimum card payment is $${CARD_MIN_USD}.`);
  if (cents > section.maxUsd * 100) return refuse(`A card payment can be at most $${section.maxUsd}${target.account.claimed ? '' : ' while the account is unclaimed'}.`);
  if (!(await takeFundingSession(c))) return refuse('Too many payments were started from this network today; try again tomorrow.', 429);

  const pageUrl = `${publicBaseUrl(c)}/fund/${target.token}`;
  const checkout = await openCardCheckout(c.env, rail, {
    accountId: target.accountId,
    amountMicros: cents * 10_000,
    capMicros: target.account.claimed ? null : UNCLAIMED_CARD_TOTAL_MICROS,
    successUrl: `${pageUrl}?paid=1`,
    cancelUrl: pageUrl,
  });
  if (checkout.ok) return c.redirect(checkout.url, 303);
  if (checkout.reason === 'unavailable') return refuse(CARD_PROCESSOR_DOWN, 502);
  // What is left counting open and processing payments too, as the cap does (the account's own figure counts paid ones only).
  const left = usdCents(Math.max(0, UNCLAIMED_CARD_TOTAL_MICROS - checkout.committedMicros));
  const error = `An unclaimed account can receive at most $500 by card; $${left} is left (payments still open or processing count too).`;
  return render(c, target, { card: { amount, error, remainingUsd: left } }, 400);
}

/** `POST /fund/<token>/usdc`: a USDC intent for this account, shown with its QR code. */
export async function fundUsdc(c: Context<AppEnv>): Promise<Response> {
  const target = await fundTarget(c);
  if (!target) return notFound(c);
  const form = await readFormPost(c);
  checkCsrf(c, form.csrf);
  const amount = typeof form.amount_usd === 'string' ? form.amount_usd.trim() : '';
  const dollars = /^\d{1,5}$/.test(amount) ? Number(amount) : NaN;
  const refuse = (error: string, status: 400 | 429 | 502 = 400) => render(c, target, { usdc: { amount, error } }, status);
  if (!(dollars >= 5 && dollars <= 10_000)) return refuse('Enter whole dollars from 5 to 10000.');
  if (!(await takeFundingSession(c))) return refuse('Too many payments were started from this network today; try again tomorrow.', 429);
  let opened: UsdcIntent;
  try {
    opened = await openUsdcIntent(c.env, target.accountId, dollars);
  } catch (err) {
    if (err instanceof GatewayError) return refuse(err.message, err.status === 429 ? 429 : 502);
    throw err;
  }
  const { intent, config } = opened;
  const transfer = `ethereum:${config.token}@8453/transfer?address=${config.depositAddress}&uint256=${intent.amountMicros}`;
  const qrSvg = renderSVG(transfer, { pixelSize: 4 }).replace('<svg ', '<svg role="img" aria-label="QR code of the USDC transfer" ');
  return render(c, target, {
    usdc: {
      amount,
      intent: {
        amountUsdc: usdcAmount(intent.amountMicros),
        address: config.depositAddress,
        tokenContract: config.token,
        confirmations: config.confirmations,
        expiresAt: new Date(intent.expiresAt).toISOString().replace('T', ' ').slice(0, 16) + ' UTC',
        qrSvg,
      },
    },
  });
}

async function takeFundingSession(c: Context<AppEnv>): Promise<boolean> {
  const { day } = spendPeriods(Date.now());
  return (await countFundingSession(database(c.env), clientIpKey(c), day.slice(2))) <= FUNDING_SESSIONS_PER_IP_PER_DAY;
}
