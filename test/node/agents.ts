/** An agent as the end-to-end tests need one: registered, credited by the operator API, and its account view. */
export interface TestAgent {
  apiKey: string;
  accountId: string;
  /** `GET /agent/account` as the agent sees it. */
  account: () => Promise<{ balance_usd: string; held_usd: string }>;
}

let ipSequence = 0;

/**
 * Registers an agent (each from its own documentation-range address, so the per-IP limit never
 * bites) and, unless `usd` is `'0'`, credits it through the operator API.
 */
export async function fundedAgent(gatewayUrl: string, adminToken: string, usd: string): Promise<TestAgent> {
  ipSequence++;
  const registered = await fetch(`${gatewayUrl}/agent/register`, {
    method: 'POST',
    headers: { 'CF-Connecting-IP': `198.51.${100 + Math.floor(ipSequence / 250)}.${(ipSequence % 250) + 1}` },
    body: JSON.stringify({ type: 'anonymous' }),
  });
  if (registered.status !== 201) throw new Error(`registration answered ${registered.status}`);
  const { api_key: apiKey, account_id: accountId } = (await registered.json()) as { api_key: string; account_id: string };
  if (usd !== '0') {
    const credited = await fetch(`${gatewayUrl}/admin/accounts/${accountId}/credits`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ amount_usd: usd, reason: 'end-to-end test' }),
    });
    if (credited.status !== 200) throw new Error(`credit answered ${credited.status}`);
  }
  const account = async () => (await (await fetch(`${gatewayUrl}/agent/account`, { headers: { Authorization: `Bearer ${apiKey}` } })).json()) as { balance_usd: string; held_usd: string };
  return { apiKey, accountId, account };
}
