import type { AccountDurableObject } from './account';
import type { OrgPeer } from './membership';
import { OrgHoldChannel } from './org-hold-channel';

/**
 * A member account's way to its organizations' Durable Objects (D29): one `OrgPeer` per
 * organization for the life of this object (its stub and its hold channel made once, not per
 * request), so the holds of one batch (and those that arrive while a call is in flight) reach the
 * organization together.
 */
export function organizationPeers(env: Env): (organizationId: string) => OrgPeer {
  const peers = new Map<string, OrgPeer>();
  return (organizationId) => {
    let peer = peers.get(organizationId);
    if (!peer) {
      const stub: DurableObjectStub<AccountDurableObject> = env.ACCOUNT.get(env.ACCOUNT.idFromName(organizationId));
      const channel = new OrgHoldChannel((inputs) => stub.holdsForMember(inputs));
      peer = {
        joinAsMember: (memberId, inviteHash) => stub.joinAsMember(memberId, inviteHash),
        leftAsMember: (memberId) => stub.leftAsMember(memberId),
        memberKeySpend: (memberId) => stub.memberKeySpend(memberId),
        holdForMember: (input) => channel.hold(input),
        spendableForMember: (input) => stub.spendableForMember(input),
        memberView: (memberId) => stub.memberView(memberId),
        memberRequest: (memberId, requestId) => stub.memberRequest(memberId, requestId),
      };
      peers.set(organizationId, peer);
    }
    return peer;
  };
}
