import { describe, expect, it } from 'vitest';
import { AccountDurableObject as AccountImpl } from './account/account';
import { ACCOUNT_METHODS, WEB_JOB_METHODS } from './classes';
import { WebJobDurableObject as WebJobImpl } from './web-job/web-job';

/** The methods a class defines itself (what RPC and the runtime can call), without the constructor. */
const ownMethods = (cls: { prototype: object }) => Object.getOwnPropertyNames(cls.prototype).filter((name) => name !== 'constructor').sort();

describe('the thin Durable Object classes', () => {
  it('forward every method the account implementation defines', () => {
    expect([...ACCOUNT_METHODS].sort()).toEqual(ownMethods(AccountImpl));
  });

  it('forward every method the web job implementation defines', () => {
    expect([...WEB_JOB_METHODS].sort()).toEqual(ownMethods(WebJobImpl));
  });
});
