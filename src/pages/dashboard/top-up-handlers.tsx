import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { openCardCheckout, UNCLAIMED_CARD_TOTAL_MICROS } from '../../funding/card-checkout';
import { stripeRail } from '../../funding/stripe';
import { accountStub } from '../../human/claims';
import { publicBaseUrl } from '../../urls';
import type { TopUpRefusal } from '../../../durable-objects/account/top-up';
import { CARD_PROCESSOR_DOWN } from '../card-refusals';
import { checkCsrf, pageHeaders } from '../security';
import { dashboardCsrf, signedIn, signedInPost, type SignedIn } from './handlers';
import { TopUpPage, type TopUpPageProps } from './top-up-page';
import { parseAmount, parseRule } from './top-up-form';
import { readFormPost } from '../form-post';

const PAGE = '/dashboard/top-up';

const NOTICES: Record<string, string> = {
  on: 'Auto top-up is on.',
  off: 'Auto top-up is off.',
};

const REFUSALS: Record<TopUpRefusal['reason'], string> = {
  no_card: 'Save a card first: auto top-up charges it.',
  invalid_amount: 'Enter an amount from $5 to $1,000.',
  invalid_threshold: 'Enter a threshold from $0 to $10,000.',
};

type Extra = Pick<TopUpPageProps, 'notice' | 'rule' | 'card'>;

/** The page for the signed-in human's account, with `extra` (a notice, a form sent back with its error). */
async function render(c: Context<AppEnv>, human: SignedIn, extra: Extra, status: 200 | 400 | 502 = 200): Promise<Response> {
  const view = await accountStub(c.env, human.account.accountId).topUpView();
  if (!view) return c.redirect('/signin', 303);
  const rail = stripeRail(c.env);
  const page = <TopUpPage shortId={human.account.accountId.slice(0, 8)} csrf={dashboardCsrf(c)} balanceMicros={human.account.balanceMicros} view={view} cardsEnabled={rail !== undefined} {...extra} />;
  // The card form leads to Stripe's Checkout: browsers check form-action on the redirect too.
  return c.html(page, status, pageHeaders(rail ? [rail.checkoutOrigin] : []));
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** `GET /dashboard/top-up`. */
export async function topUpPage(c: Context<AppEnv>): Promise<Response> {
  const human = await signedIn(c, Date.now());
  if (human instanceof Response) return human;
  const paid = c.req.query('card') === 'saved' ? 'Thank you: the payment went through. The balance rises and the card appears here as soon as Stripe confirms it.' : undefined;
  return render(c, human, { notice: paid ?? NOTICES[c.req.query('done') ?? ''] });
}

/** `POST /dashboard/top-up`: turns auto top-up on with a threshold and an amount, or changes them. */
export async function enableTopUp(c: Context<AppEnv>): Promise<Response> {
  const request = await signedInPost(c);
  if (request instanceof Response) return request;
  const { human, form } = request;
  const values = { threshold: text(form.threshold_usd), amount: text(form.amount_usd) };
  const parsed = parseRule(form);
  if (!parsed.ok) return render(c, human, { rule: { ...values, error: parsed } }, 400);
  const result = await accountStub(c.env, human.account.accountId).enableTopUp(parsed.rule);
  if (!result) return c.redirect('/signin', 303);
  if (!result.ok) return render(c, human, { rule: { ...values, error: { message: REFUSALS[result.reason] } } }, 400);
  return c.redirect(`${PAGE}?done=on`, 303);
}

/** `POST /dashboard/top-up/disable`. */
export async function disableTopUp(c: Context<AppEnv>): Promise<Response> {
  const request = await signedInPost(c);
  if (request instanceof Response) return request;
  await accountStub(c.env, request.human.account.accountId).disableTopUp();
  return c.redirect(`${PAGE}?done=off`, 303);
}

/**
 * `POST /dashboard/top-up/card`: a card payment of the amount typed, through Stripe Checkout, that
 * keeps the card for auto top-up (the webhook stores it once the payment is confirmed).
 */
export async function saveCard(c: Context<AppEnv>): Promise<Response> {
  const request = await signedInPost(c);
  if (request instanceof Response) return request;
  const { human, form } = request;
  const amount = text(form.amount_usd);
  const refuse = (error: string, status: 400 | 502 = 400) => render(c, human, { card: { amount, error } }, status);
  const rail = stripeRail(c.env);
  if (!rail) return refuse('Card payments are not available on this gateway.');
  const parsed = parseAmount(amount);
  if (!parsed.ok) return refuse(parsed.message);
  const accountId = human.account.accountId;
  const view = await accountStub(c.env, accountId).topUpView();
  if (!view) return c.redirect('/signin', 303);

  const page = `${publicBaseUrl(c)}${PAGE}`;
  // A claimed account has no card total (spec "Limits"); an unclaimed one keeps its $500.
  const checkout = await openCardCheckout(c.env, rail, {
    accountId,
    amountMicros: parsed.micros,
    capMicros: human.account.claimed ? null : UNCLAIMED_CARD_TOTAL_MICROS,
    successUrl: `${page}?card=saved`,
    cancelUrl: page,
    saveCard: { customerId: view.customerId },
  });
  if (checkout.ok) return c.redirect(checkout.url, 303);
  return checkout.reason === 'unavailable' ? refuse(CARD_PROCESSOR_DOWN, 502) : refuse('An unclaimed account can receive at most $500 by card.');
}
