import { describe, expect, it } from 'vitest';
import { sharedTime } from '../../../../src/slack/kit/times.js';

const MARCH_4_0930_UTC = Date.UTC(2025, 2, 4, 9, 30);

describe('times operators read', () => {
  it('on a shared message: Slack’s date token, with a fallback people read, saying UTC', () => {
    expect(sharedTime(MARCH_4_0930_UTC, 'en')).toBe(
      '<!date^1741080600^{date_short_pretty} {time}|4 Mar 2025, 09:30 UTC>',
    );
    expect(sharedTime(MARCH_4_0930_UTC, 'zh-CN')).toContain('|2025年3月4日 UTC 09:30>');
  });

  it('for one reader: the same token, its fallback in their zone, or in UTC saying so', () => {
    expect(sharedTime(MARCH_4_0930_UTC, 'en', 'America/New_York')).toBe(
      '<!date^1741080600^{date_short_pretty} {time}|4 Mar 2025, 04:30>',
    );
    expect(sharedTime(MARCH_4_0930_UTC, 'en', 'UTC')).toContain('|4 Mar 2025, 09:30 UTC>');
  });

  it('give nothing for an impossible time, never a broken token', () => {
    expect(sharedTime(undefined, 'en')).toBe('');
    expect(sharedTime(Number.NaN, 'en')).toBe('');
    expect(sharedTime(Number.POSITIVE_INFINITY, 'en', 'UTC')).toBe('');
  });
});
