import { describe, expect, it } from 'vitest';
import type { FailureReason } from '../../../../src/conversation/types.js';
import { t as deskT } from '../../../../src/slack/desk/messages.js';
import { t as homeT } from '../../../../src/slack/home/messages.js';
import { failureText, failureWording } from '../../../../src/slack/kit/failure-wording.js';

describe('failureText', () => {
  it('asks to try again in every failure message', () => {
    for (const reason of Object.keys(failureWording.en) as FailureReason[]) {
      expect(failureText('en', reason)).toMatch(/try again/i);
      expect(failureText('zh-CN', reason)).toMatch(/再试|重试/);
    }
  });

  it('tells a robot not reached as one unavailable: either way, try later', () => {
    expect(failureText('en', 'unreachable')).toBe(failureText('en', 'unavailable'));
    expect(failureText('en', 'timeout')).toBe('The answer service took too long to reply. Please try again.');
  });
});

describe('rooms that word the platform’s kinds themselves', () => {
  it('tell a timeout as the platform not reached, in both languages', () => {
    for (const locale of ['en', 'zh-CN'] as const) {
      const as = (reason: string) => [
        deskT(locale, 'cs_stats_failure', { reason }),
        deskT(locale, 'cs_agents_failure', { reason, group: 'G1' }),
        deskT(locale, 'tickets_csv_failed', { reason }),
        homeT(locale, 'home_figures_unavailable', { reason }),
      ];
      expect(as('timeout')).toEqual(as('unreachable'));
      expect(as('malformed')).toEqual(as('unavailable'));
    }
  });
});
