import { describe, expect, it } from 'vitest';
import { t } from '../../../../src/slack/desk/messages.js';

describe('desk messages', () => {
  it('count tickets in the singular for one, grouped in both languages', () => {
    const page = { page: 1, pages: 1, zone: 'UTC' };
    expect(t('en', 'tickets_summary', { total: 1, ...page })).toMatch(/^1 ticket · page 1 of 1/);
    expect(t('en', 'tickets_summary', { total: 12345, ...page })).toMatch(/^12,345 tickets · /);
    expect(t('zh-CN', 'tickets_summary', { total: 12345, ...page })).toMatch(/^共 12,345 个工单 · /);
    expect(t('en', 'tickets_csv_sent', { file: 'f.csv', rows: 1 })).toContain('(1 ticket)');
    expect(t('en', 'tickets_too_long', { days: 1 })).toBe('At most 1 day at a time.');
    expect(t('en', 'cs_stats_compared', { from: 'a', to: 'b', days: 1 })).toContain('b, the day before.');
  });

  it("name the spec's table values, and a value the spec does not list as unknown", () => {
    expect(t('en', 'ticket_status', { code: '99' })).toBe('closed');
    expect(t('zh-CN', 'ticket_source', { code: '12' })).toBe('邮件留言');
    expect(t('en', 'ticket_level', { code: '7' })).toBe('unknown (7)');
    expect(t('zh-CN', 'ticket_start', { code: '5' })).toBe('未知（5）');
  });
});
