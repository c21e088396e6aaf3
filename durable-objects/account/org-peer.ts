import type { AccountDurableObject } from './account';
import type { OrgPeer } from './membership';
import { OrgHoldChannel } from './org-hold-channel';

/**
 * A member account's way to its organizations' Durable Objects (D29): one `OrgPeer` per call, and
 * one hold channel per organization for the life of this object, so the holds of one batch (and
 * those that arrive while a call is in flight) reach the organization together.
 */
export function organizationPeers(env: Env): (organizationId: string) => OrgPeer {
  const holdChannels = new Map<string, OrgHoldChannel>();
  return (organizationId) => {
    const stub: DurableObjectStub<AccountDurableObject> = env.ACCOUNT.get(env.ACCOUNT.idFromName(organizationId));
    let holds = holdChannels.get(organizationId);
    if (!holds) {
      holds = new OrgHoldChannel((inputs) => stub.holdsForMember(inputs));
      holdChannels.set(organizationId, holds);
    }
    const channel = holds;
    return {
      joinAsMember: (memberId, inviteHash) => stub.joinAsMember(memberId, inviteHash),
      leftAsMember: (memberId) => stub.leftAsMember(memberId),
      memberKeySpend: (memberId) => stub.memberKeySpend(memberId),
      holdForMember: (input) => channel.hold(input),
      spendableForMember: (input) => stub.spendableForMember(input),
      memberView: (memberId) => stub.memberView(memberId),
      memberRequest: (memberId, requestId) => stub.memberRequest(memberId, requestId),
    };
  };
}
