import { describe, expect, it } from 'vitest';
import { sharedTime, viewerTime } from '../../../../src/slack/kit/times.js';

const MARCH_4_0930_UTC = Date.UTC(2025, 2, 4, 9, 30);

describe('times operators read', () => {
  it('on a shared message: Slack’s date token, with a fallback people read, saying UTC', () => {
    expect(sharedTime(MARCH_4_0930_UTC, 'en')).toBe(
      '<!date^1741080600^{date_short_pretty} {time}|4 Mar 2025, 09:30 UTC>',
    );
    expect(sharedTime(MARCH_4_0930_UTC, 'zh-CN')).toContain('|2025年3月4日 UTC 09:30>');
  });

  it('for one viewer: in their zone, or in UTC saying so', () => {
    expect(viewerTime(MARCH_4_0930_UTC, 'en', 'America/New_York')).toBe('4 Mar 2025, 04:30');
    expect(viewerTime(MARCH_4_0930_UTC, 'en', undefined)).toBe('4 Mar 2025, 09:30 UTC');
  });

  it('give nothing for an impossible time, never a broken token', () => {
    expect(sharedTime(undefined, 'en')).toBe('');
    expect(sharedTime(Number.NaN, 'en')).toBe('');
    expect(viewerTime(Number.POSITIVE_INFINITY, 'en', 'UTC')).toBe('');
  });
});
