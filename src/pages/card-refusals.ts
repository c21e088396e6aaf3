/** What a page says when Stripe did not make the Checkout Session (nothing was charged). */
export const CARD_PROCESSOR_DOWN = 'The card processor did not answer; nothing was charged. Try again in a minute.';
