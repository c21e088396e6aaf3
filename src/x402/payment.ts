import type { PaymentPayload, SettleResponse } from '@x402/core/types';
import { decodePaymentSignatureHeader, encodePaymentResponseHeader } from './wire';
import { GatewayError } from '../errors';
import { database } from '../db';
import { recordPaidDeposit, X402_DEPOSIT_NOTE } from '../db/funding';
import { creditFunding } from '../funding/credit';
import { usdcConfig } from '../funding/usdc-config';
import { depositCreditKey } from '../funding/watch';
import { CENT_MICROS, type X402Config } from './config';
import { paymentRequirements } from './challenge';

export const PAYMENT_SIGNATURE = 'PAYMENT-SIGNATURE';
export const PAYMENT_RESPONSE = 'PAYMENT-RESPONSE';

/** A payment that did not go through: a 402 with a fresh challenge (for `amountMicros`) and the reason. */
export function paymentFailed(reason: string, amountMicros: number): GatewayError {
  return new GatewayError('insufficient_credits', `The x402 payment was not accepted: ${reason}.`, {
    funding: { fundToken: null, availableMicros: 0, requiredMicros: amountMicros, x402AmountMicros: amountMicros },
  });
}

/** A settled payment: who paid, how much (micro-dollars = USDC base units), and the idempotency key of its credit. */
export interface SettledPayment {
  response: SettleResponse;
  amountMicros: number;
  payer: string;
  creditKey: string;
}

interface Authorization {
  from: string;
  nonce: string;
  value: string;
}

function authorizationOf(payload: PaymentPayload): Authorization | null {
  const auth = (payload.payload as { authorization?: unknown }).authorization;
  if (typeof auth !== 'object' || auth === null) return null;
  const { from, nonce, value } = auth as Record<string, unknown>;
  if (typeof from !== 'string' || typeof nonce !== 'string' || typeof value !== 'string') return null;
  return { from, nonce, value };
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Decodes `PAYMENT-SIGNATURE`, checks it pays us (scheme, network, asset, payTo, a whole number of
 * cents, at least the minimum or `atLeastMicros`), then verifies and settles it on chain. Every refusal is a 402
 * `paymentFailed`: nothing is settled or credited.
 */
export async function settlePayment(env: Env, config: X402Config, header: string, atLeastMicros = config.minTopupMicros): Promise<SettledPayment> {
  const payload: PaymentPayload | null = decodePaymentSignatureHeader(header);
  if (!payload) throw paymentFailed('the PAYMENT-SIGNATURE header is not base64 JSON of an x402 payment payload', config.minTopupMicros);
  const accepted = payload?.accepted;
  const auth = payload && typeof payload.payload === 'object' && payload.payload !== null ? authorizationOf(payload) : null;
  if (payload?.x402Version !== 2 || !accepted || !auth) throw paymentFailed('expected an x402 version 2 "exact" EIP-3009 payment', config.minTopupMicros);
  const amount = /^\d{1,15}$/.test(auth.value) ? Number(auth.value) : NaN;
  if (accepted.scheme !== 'exact' || accepted.network !== config.network) throw paymentFailed(`only the "exact" scheme on ${config.network} is accepted`, config.minTopupMicros);
  if (!same(String(accepted.asset), config.asset)) throw paymentFailed(`the asset must be ${config.asset}`, config.minTopupMicros);
  if (!same(String(accepted.payTo), config.payTo)) throw paymentFailed(`payTo must be ${config.payTo}`, config.minTopupMicros);
  const least = Math.max(config.minTopupMicros, atLeastMicros);
  if (!Number.isSafeInteger(amount) || amount < least || amount % CENT_MICROS !== 0 || String(accepted.amount) !== auth.value) {
    throw paymentFailed(`the amount must be a whole number of cents, at least ${least} base units`, least);
  }
  const requirements = paymentRequirements(config, amount);
  // Loaded on the first payment: the relayer's signer (viem accounts, @x402/evm, secp256k1 tables)
  // costs milliseconds of set-up that no other request should pay at a cold start (issue #25).
  const { settler } = await import('./settle');
  const facilitator = settler(config, (tx) => {
    const relayer = env.X402_RELAYER;
    return relayer.get(relayer.idFromName(`relayer:${config.chainId}`)).send(tx);
  });
  let verified;
  try {
    verified = await facilitator.verify(payload, requirements);
  } catch (err) {
    throw paymentFailed(`verification failed (${err instanceof Error ? err.message : String(err)})`, amount);
  }
  if (!verified.isValid) throw paymentFailed(`verification failed (${verified.invalidReason ?? 'invalid'}${verified.invalidMessage ? `: ${verified.invalidMessage}` : ''})`, amount);
  let settled: SettleResponse;
  try {
    settled = await facilitator.settle(payload, requirements);
  } catch (err) {
    throw paymentFailed(`settlement failed (${err instanceof Error ? err.message : String(err)})`, amount);
  }
  if (!settled.success) throw paymentFailed(`settlement failed (${settled.errorReason ?? 'unknown'}${settled.errorMessage ? `: ${settled.errorMessage}` : ''})`, amount);
  const payer = settled.payer ?? auth.from;
  return {
    response: settled,
    amountMicros: amount,
    payer,
    // One authorization (chain, token, authorizer, nonce) credits once, however often it is replayed.
    creditKey: `x402:${config.chainId}:${config.asset.toLowerCase()}:${auth.from.toLowerCase()}:${auth.nonce.toLowerCase()}`,
  };
}

/**
 * Credits a settled payment to `accountId`. Its transfer is also a deposit to the USDC address
 * the watcher reads, so it is recorded as that deposit, credited to this account, before the
 * credit, and credited under the deposit's own key (`usdc:<tx>:<log>`): the watcher never lists it
 * as unmatched and the operator's hand credit of it is the same ledger row, never a second one.
 * Should its receipt be unreadable, the payment's own key (authorizer and nonce) is used and the
 * transfer may later show as unmatched, with this credit's note naming its transaction.
 */
export async function creditPayment(env: Env, accountId: string, payment: SettledPayment): Promise<void> {
  const depositId = await recordDeposit(env, accountId, payment);
  const result = await creditFunding(env, {
    accountId,
    amountMicros: payment.amountMicros,
    source: 'x402',
    idempotencyKey: depositId ? depositCreditKey({ id: depositId, reversals: 0 }) : payment.creditKey,
    note: `x402 payment from ${payment.payer}, transaction ${payment.response.transaction}`,
  });
  if (!result) throw new GatewayError('invalid_api_key', 'The API key is not valid.');
  // The watcher checks the recorded transfer until its block is final, and takes the credit back should a reorg remove it.
  if (depositId) await env.FUNDING_WATCHER.get(env.FUNDING_WATCHER.idFromName('usdc')).wake();
}

/** The payment's transfer recorded as a deposit credited to `accountId`; its id, or null when the receipt could not be read. */
async function recordDeposit(env: Env, accountId: string, payment: SettledPayment): Promise<string | null> {
  const usdc = usdcConfig(env);
  const tx = payment.response.transaction;
  if (!usdc || !/^0x[0-9a-fA-F]{64}$/.test(tx)) return null;
  let transfer;
  try {
    const { chainClient, transferInTransaction } = await import('../funding/chain');
    transfer = await transferInTransaction(chainClient(usdc), usdc, tx as `0x${string}`, BigInt(payment.amountMicros));
  } catch (err) {
    console.error(`x402: the receipt of ${tx} could not be read; credited under the authorization's key`, err);
    return null;
  }
  if (!transfer) return null;
  const id = `${transfer.txHash}:${transfer.logIndex}`;
  const now = Date.now();
  const ours = await recordPaidDeposit(database(env), {
    id,
    txHash: transfer.txHash,
    logIndex: transfer.logIndex,
    blockNumber: transfer.blockNumber,
    blockHash: transfer.blockHash,
    blockTime: null,
    fromAddress: transfer.from,
    amount: transfer.value.toString(),
    status: 'credited',
    intentId: null,
    accountId,
    seenAt: now,
    creditedAt: now,
    note: X402_DEPOSIT_NOTE,
  });
  if (!ours) throw paymentFailed('this transfer was already credited to another account', payment.amountMicros);
  return id;
}

export const paymentResponseHeader = (payment: SettledPayment): string => encodePaymentResponseHeader(payment.response);
