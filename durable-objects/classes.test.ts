import { DurableObject } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { AccountDurableObject as AccountImpl } from './account/account';
import { ACCOUNT_METHODS, ROUTE_HEALTH_METHODS, WEB_JOB_METHODS } from './classes';
import { RouteHealthDurableObject as RouteHealthImpl } from './route-health/route-health';
import { WebJobDurableObject as WebJobImpl } from './web-job/web-job';

/** The methods a class and its own base classes define (what RPC and the runtime can call), without constructors. */
function ownMethods(cls: { prototype: object }): string[] {
  const names = new Set<string>();
  for (let proto: object | null = cls.prototype; proto && proto !== DurableObject.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor') names.add(name);
  }
  return [...names].sort();
}

describe('the thin Durable Object classes', () => {
  it('forward every method the account implementation defines', () => {
    expect([...ACCOUNT_METHODS].sort()).toEqual(ownMethods(AccountImpl));
  });

  it('forward every method the web job implementation defines', () => {
    expect([...WEB_JOB_METHODS].sort()).toEqual(ownMethods(WebJobImpl));
  });

  it('forward every method the route health implementation defines', () => {
    expect([...ROUTE_HEALTH_METHODS].sort()).toEqual(ownMethods(RouteHealthImpl));
  });
});
