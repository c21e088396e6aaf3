import { describe, expect, it } from 'vitest';
import { ExpiryAlarm } from './alarm';

/** The alarm calls of a Durable Object's storage, recorded; `setAt` is what `getAlarm` answers. */
function recordingStorage(setAt: number | null = null) {
  const calls: string[] = [];
  const storage = {
    getAlarm: async () => (calls.push('get'), setAt),
    setAlarm: async (at: number) => void calls.push(`set ${at}`),
    deleteAlarm: async () => void calls.push('delete'),
  };
  return { calls, alarm: new ExpiryAlarm(storage as unknown as DurableObjectStorage) };
}

describe('the hold expiry alarm', () => {
  it('sets the alarm once per call, for the soonest expiry asked for', async () => {
    const { calls, alarm } = recordingStorage();
    alarm.wakeBy(300);
    alarm.wakeBy(100);
    alarm.wakeBy(200);
    await alarm.schedule();
    await alarm.schedule(); // nothing new asked for
    expect(calls).toEqual(['set 100']);
  });

  it('makes no storage call when the alarm already fires as soon or sooner', async () => {
    const { calls, alarm } = recordingStorage();
    alarm.wakeBy(100);
    await alarm.schedule();
    alarm.wakeBy(100);
    await alarm.schedule();
    alarm.wakeBy(500);
    await alarm.schedule();
    alarm.wakeBy(50);
    await alarm.schedule();
    expect(calls).toEqual(['set 100', 'set 50']);
  });

  it('trusts the alarm it finds set when the object starts', async () => {
    const { calls, alarm } = recordingStorage(100);
    await alarm.load();
    alarm.wakeBy(200);
    await alarm.schedule();
    expect(calls).toEqual(['get']);
  });

  it('sets the alarm again once it has fired, and never for Infinity', async () => {
    const { calls, alarm } = recordingStorage();
    alarm.wakeBy(100);
    await alarm.schedule();
    alarm.fired();
    alarm.wakeBy(Infinity); // no hold left open
    await alarm.schedule();
    alarm.wakeBy(400);
    await alarm.schedule();
    expect(calls).toEqual(['set 100', 'set 400']);
  });

  it('forgets the alarm it deleted', async () => {
    const { calls, alarm } = recordingStorage();
    alarm.wakeBy(100);
    await alarm.schedule();
    await alarm.delete();
    alarm.wakeBy(200);
    await alarm.schedule();
    expect(calls).toEqual(['set 100', 'delete', 'set 200']);
  });
});
