import type { PaymentPayload, SettleResponse } from '@x402/core/types';
import { decodePaymentSignatureHeader, encodePaymentResponseHeader } from './wire';
import { GatewayError } from '../errors';
import { database } from '../db';
import { recordPaidDeposit, recordUnplacedPaidDeposit, unplacedDepositId, UNPLACED, X402_DEPOSIT_NOTE, type DepositRow, type NewDeposit } from '../db/funding';
import type { TransferLog } from '../funding/chain';
import { creditFunding } from '../funding/credit';
import { usdcConfig } from '../funding/usdc-config';
import { depositCreditKey } from '../funding/deposit-key';
import { CENT_MICROS, type X402Config } from './config';
import { paymentRequirements } from './challenge';
import type { Settlement } from './settle';

export const PAYMENT_SIGNATURE = 'PAYMENT-SIGNATURE';
export const PAYMENT_RESPONSE = 'PAYMENT-RESPONSE';

/** A payment that did not go through: a 402 with a fresh challenge (for `amountMicros`) and the reason. */
export function paymentFailed(reason: string, amountMicros: number): GatewayError {
  return new GatewayError('insufficient_credits', `The x402 payment was not accepted: ${reason}.`, {
    funding: { fundToken: null, availableMicros: 0, requiredMicros: amountMicros, x402AmountMicros: amountMicros },
  });
}

/** A settled payment: who paid, how much (micro-dollars = USDC base units), and where its transfer landed. */
export interface SettledPayment {
  response: SettleResponse;
  amountMicros: number;
  payer: string;
  /** The transfer to the deposit address in the settlement's receipt; null when no receipt could be read (facilitator mode). */
  transfer: TransferLog | null;
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
  let settled: Settlement;
  try {
    settled = await facilitator.settle(payload, requirements);
  } catch (err) {
    throw paymentFailed(`settlement failed (${err instanceof Error ? err.message : String(err)})`, amount);
  }
  const { response } = settled;
  if (!response.success) throw paymentFailed(`settlement failed (${response.errorReason ?? 'unknown'}${response.errorMessage ? `: ${response.errorMessage}` : ''})`, amount);
  return { response, amountMicros: amount, payer: response.payer ?? auth.from, transfer: await settledTransfer(env, settled, amount) };
}

/**
 * Where the settlement's transfer landed: from the receipt the relayer waited for, else (a
 * facilitator) from the receipt read here with retries; null when it still cannot be read. A
 * receipt without the transfer to us paid someone else: refused.
 */
async function settledTransfer(env: Env, settled: Settlement, amountMicros: number): Promise<TransferLog | null> {
  const tx = settled.response.transaction;
  // x402 is on only with the USDC rail set up (`x402Config`), whose token and deposit address it pays.
  const usdc = usdcConfig(env);
  if (!usdc || !/^0x[0-9a-fA-F]{64}$/.test(tx)) throw paymentFailed('the settlement named no transaction on the configured chain', amountMicros);
  const chain = await import('../funding/chain');
  const receipt = settled.receipt ?? (await chain.receiptWithRetries(chain.chainClient(usdc), tx as `0x${string}`));
  if (!receipt) return null;
  const transfer = chain.transferInReceipt(usdc, receipt, BigInt(amountMicros));
  if (!transfer) throw paymentFailed(`transaction ${tx} shows no transfer of ${amountMicros} base units to ${usdc.depositAddress}`, amountMicros);
  return transfer;
}

/**
 * Credits a settled payment to `accountId`. Its transfer is also a deposit to the USDC address
 * the watcher reads, so it is first recorded as that deposit, credited to this account, and
 * credited under the deposit's own key (`depositCreditKey`): the watcher never lists it as
 * unmatched, the operator's hand credit of it is the same ledger row, and a reorg that removes it
 * takes the credit back. A payment whose receipt could not be read is recorded without its place
 * (`recordUnplacedPaidDeposit`): the watcher places it from its receipt later, or takes the
 * credit back should the chain never show it.
 */
export async function creditPayment(env: Env, accountId: string, payment: SettledPayment): Promise<void> {
  const deposit = await recordDeposit(env, accountId, payment);
  const result = await creditFunding(env, {
    accountId,
    amountMicros: payment.amountMicros,
    source: 'x402',
    idempotencyKey: depositCreditKey(deposit),
    note: `x402 payment from ${payment.payer}, transaction ${payment.response.transaction}`,
  });
  if (!result) throw new GatewayError('invalid_api_key', 'The API key is not valid.');
  // The watcher checks the recorded transfer until its block is final, and takes the credit back should a reorg remove it.
  await env.FUNDING_WATCHER.get(env.FUNDING_WATCHER.idFromName('usdc')).wake();
}

/** The payment's transfer recorded as a deposit credited to `accountId`: the row its credit is keyed on. */
async function recordDeposit(env: Env, accountId: string, payment: SettledPayment): Promise<Pick<DepositRow, 'id' | 'reversals'>> {
  const now = Date.now();
  const { transfer } = payment;
  const row: NewDeposit = {
    id: transfer ? `${transfer.txHash}:${transfer.logIndex}` : unplacedDepositId(payment.response.transaction),
    txHash: transfer?.txHash ?? payment.response.transaction.toLowerCase(),
    logIndex: transfer?.logIndex ?? UNPLACED.logIndex,
    blockNumber: transfer?.blockNumber ?? UNPLACED.blockNumber,
    blockHash: transfer?.blockHash ?? UNPLACED.blockHash,
    blockTime: null,
    fromAddress: transfer?.from ?? payment.payer,
    amount: String(payment.amountMicros),
    status: 'credited',
    intentId: null,
    accountId,
    seenAt: now,
    creditedAt: now,
    note: X402_DEPOSIT_NOTE,
  };
  const db = database(env);
  const ours = transfer ? ((await recordPaidDeposit(db, row)) ? { id: row.id, reversals: 0 } : null) : await recordUnplacedPaidDeposit(db, row);
  if (!ours) throw paymentFailed('this transfer was already credited to another account', payment.amountMicros);
  return ours;
}

export const paymentResponseHeader = (payment: SettledPayment): string => encodePaymentResponseHeader(payment.response);
