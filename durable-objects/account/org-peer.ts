import type { OrgPeer } from './org-protocol';
import { OrgHoldChannel, type MemberHoldReply } from './org-hold-channel';

/** What a peer's call answers. */
type Answer<K extends keyof OrgPeer> = Awaited<ReturnType<OrgPeer[K]>>;

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
      // The organization's object, typed by the binding (not by importing the class this module serves).
      const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(organizationId));
      // A stub may be broken after a failed call: the next call makes a new peer.
      const call = async <T>(made: PromiseLike<T>): Promise<T> => {
        try {
          return await made;
        } catch (err) {
          if (peers.get(organizationId) === peer) peers.delete(organizationId);
          throw err;
        }
      };
      const channel = new OrgHoldChannel((inputs) => call<MemberHoldReply[]>(stub.holdsForMember(inputs)));
      peer = {
        joinAsMember: (memberId, inviteHash) => call<Answer<'joinAsMember'>>(stub.joinAsMember(memberId, inviteHash)),
        leftAsMember: (memberId) => call<Answer<'leftAsMember'>>(stub.leftAsMember(memberId)),
        memberKeySpend: (memberId) => call<Answer<'memberKeySpend'>>(stub.memberKeySpend(memberId)),
        holdForMember: (input) => channel.hold(input),
        grantPool: (input) => call<Answer<'grantPool'>>(stub.poolForMember(input)),
        returnPooled: (memberId, holdIds) => call<Answer<'returnPooled'>>(stub.returnPoolForMember(memberId, holdIds)),
        spendableForMember: (input) => call<Answer<'spendableForMember'>>(stub.spendableForMember(input)),
        memberView: (memberId) => call<Answer<'memberView'>>(stub.memberView(memberId)),
        memberRequest: (memberId, requestId, keyId) => call<Answer<'memberRequest'>>(stub.memberRequest(memberId, requestId, keyId)),
      };
      peers.set(organizationId, peer);
    }
    return peer;
  };
}
