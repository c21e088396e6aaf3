import { describe, expect, it } from 'vitest';
import { RateWindow } from './rate-window';

describe('RateWindow', () => {
  it('lets perMinute holds through in a minute, then says when the oldest leaves the window', () => {
    const window = new RateWindow();
    for (let i = 0; i < 3; i++) {
      expect(window.wait('chat:gateway/echo', 3, 1_000 + i * 1_000)).toBeNull();
      window.note('chat:gateway/echo', 1_000 + i * 1_000);
    }
    // At 10 s the first (at 1 s) leaves at 61 s: 51 s to wait.
    expect(window.wait('chat:gateway/echo', 3, 10_000)).toBe(51);
    expect(window.wait('chat:gateway/echo', 3, 61_001)).toBeNull();
  });

  it('counts each purpose apart', () => {
    const window = new RateWindow();
    window.note('a', 0);
    expect(window.wait('a', 1, 1)).toBe(60);
    expect(window.wait('b', 1, 1)).toBeNull();
  });
});
