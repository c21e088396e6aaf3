import type { RouteHandler } from '@hono/zod-openapi';
import { holdFailureError } from '../../accounts/failures';
import type { AppEnv } from '../../env';
import { intentInstructions, openUsdcIntent, usdcAmount } from '../../funding/intents';
import type { fund } from './fund.routes';

/** `POST /agent/fund`: a USDC intent for the calling key's account (`src/funding/intents.ts`). */
export const fundHandler: RouteHandler<typeof fund, AppEnv> = async (c) => {
  const { amount_usd } = c.req.valid('json');
  const { account, keyHash } = c.get('caller');
  const auth = await account.authenticate(keyHash);
  if (!auth.ok) throw holdFailureError(auth);
  // D35: a sub-key's intents count under its own cap, never the account's.
  const opened = await openUsdcIntent(c.env, auth.accountId, amount_usd, Date.now(), auth.subKey ? auth.keyId : null);
  const { intent, config } = opened;
  return c.json(
    {
      payment_intent: intent.id,
      network: 'base' as const,
      deposit_address: config.depositAddress,
      token: 'usdc' as const,
      token_contract: config.token,
      amount_usdc: usdcAmount(intent.amountMicros),
      amount_usd,
      instructions: intentInstructions(opened),
      expires_at: new Date(intent.expiresAt).toISOString(),
      confirmations: config.confirmations,
    },
    200,
  );
};
