import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../../src/platform/schemas.js';
import type { TicketFilter } from '../../../../src/service-desk/tickets.js';
import { renderTicketFilterModal } from '../../../../src/slack/desk/ticket-filter-view.js';
import {
  codeText,
  renderCsvNote,
  renderTicketResult,
  renderTicketsCsv,
  shown,
} from '../../../../src/slack/desk/ticket-views.js';
import { decodeTicketQueryValue } from '../../../../src/slack/kit/button-values.js';

const FILTER: TicketFilter = {
  from: '2026-11-01',
  to: '2026-11-20',
  timeZone: 'Asia/Shanghai',
  statuses: [0, 1, 2],
  sources: [12],
  categoryId: 'tt-it',
};

function ticket(overrides: Partial<Ticket> = {}): Ticket {
  return {
    ticketId: 'a1',
    ticketCode: 100_001,
    ticketTitle: 'VPN disconnects every hour',
    ticketContent: 'It drops.',
    ticketLevel: 2,
    ticketStatus: 1,
    startType: 1,
    startName: 'Grace Lee',
    dealUserName: 'Alice Chen',
    dealGroupName: 'IT Service Desk',
    createTime: Date.parse('2026-11-19T16:30:00Z'),
    updateTime: Date.parse('2026-11-20T01:05:00Z'),
    ticketTypeName: 'IT/Network/VPN',
    ticketFrom: 12,
    ...overrides,
  };
}

type Block = {
  type: string;
  rows?: Array<Array<{ text: string }>>;
  elements?: Array<Record<string, unknown>>;
};

describe('renderTicketResult', () => {
  it('lays a page out as a table in the reader’s words and time zone, with the buttons that go on from it', () => {
    const message = renderTicketResult('en', FILTER, {
      kind: 'page',
      tickets: [ticket(), ticket({ ticketId: 'a2', ticketCode: 100_000, ticketStatus: 77, ticketTitle: '' })],
      total: 25,
      page: 2,
      pageCount: 3,
    });
    const blocks = message.blocks as Block[];
    const table = blocks.find((block) => block.type === 'table');
    const rows = table?.rows?.map((row) => row.map((cell) => cell.text));
    expect(rows?.[1]).toEqual([
      '100001',
      'VPN disconnects every hour',
      'being handled',
      'high',
      'e-mail message',
      'Alice Chen · IT Service Desk',
      'IT/Network/VPN',
      // 16:30 UTC is 00:30 the next day in Shanghai.
      '2026-11-20 00:30',
      '2026-11-20 09:05',
    ]);
    // A status the spec does not list is said to be unknown; an empty cell shows a dash.
    expect(rows?.[2]?.[2]).toBe('unknown (77)');
    expect(rows?.[2]?.[1]).toBe('—');
    expect(message.text).toContain('25 tickets · page 2 of 3');
    expect(message.text).toContain('Status: not yet accepted, being handled, waiting for reply');

    const buttons = blocks.find((block) => block.type === 'actions')?.elements ?? [];
    expect(buttons.map((button) => button.action_id)).toEqual([
      'tickets_page:prev',
      'tickets_page:next',
      'tickets_csv',
    ]);
    expect(decodeTicketQueryValue(buttons[0]?.value)).toEqual({ ...FILTER, page: 1 });
    expect(decodeTicketQueryValue(buttons[1]?.value)).toEqual({ ...FILTER, page: 3 });
  });

  it('speaks Chinese to a Chinese reader', () => {
    const message = renderTicketResult('zh-CN', FILTER, {
      kind: 'page',
      tickets: [ticket()],
      total: 1,
      page: 1,
      pageCount: 1,
    });
    const table = (message.blocks as Block[]).find((block) => block.type === 'table');
    expect(table?.rows?.[0]?.[0]?.text).toBe('编号');
    expect(table?.rows?.[1]?.[2]?.text).toBe('处理中');
    expect(message.text).toContain('共 1 个工单');
  });

  it('offers Try again after a failure, and only the note under an empty result', () => {
    const failed = renderTicketResult('en', FILTER, { kind: 'failure', reason: 'unreachable' });
    expect(failed.text).toContain('could not be reached');
    expect(renderTicketResult('en', FILTER, { kind: 'failure', reason: 'unavailable' }).text).toContain(
      'answered with an error',
    );
    const buttons = (failed.blocks as Block[]).find((block) => block.type === 'actions')?.elements ?? [];
    expect(buttons.map((button) => button.action_id)).toEqual(['tickets_retry']);
    const empty = renderTicketResult('en', FILTER, { kind: 'empty' }, 'a note');
    expect(empty.text).toContain('No tickets were created 2026-11-01 – 2026-11-20');
    expect((empty.blocks as Block[]).map((block) => block.type)).toEqual(['section', 'context']);
  });

  it('keeps a full page of long platform text within Slack’s limits', () => {
    const long = 'x'.repeat(5000);
    const message = renderTicketResult('en', FILTER, {
      kind: 'page',
      tickets: Array.from({ length: 10 }, (_, index) =>
        ticket({ ticketId: `t${index}`, ticketTitle: long, dealUserName: long, ticketTypeName: long }),
      ),
      total: 10,
      page: 1,
      pageCount: 1,
    });
    const table = (message.blocks as Block[]).find((block) => block.type === 'table');
    for (const row of table?.rows ?? []) {
      expect(row.length).toBeLessThanOrEqual(20);
      for (const cell of row) expect(cell.text.length).toBeLessThanOrEqual(80);
    }
    expect(message.blocks.length).toBeLessThanOrEqual(50);
    expect(JSON.stringify(message.blocks).length).toBeLessThan(12_000);
  });
});

describe('renderTicketsCsv', () => {
  it('writes one row per ticket that a spreadsheet reads back as written, with formulas defused', () => {
    const csv = renderTicketsCsv(
      'en',
      [
        ticket({
          ticketTitle: '=HYPERLINK("http://evil.example","click")',
          ticketContent: 'line one\nline "two", end',
        }),
        ticket({
          ticketId: 'b',
          ticketTitle: '账号被锁定',
          startType: 0,
          ticketStatus: 99,
          ticketContent: '-1+1',
        }),
      ],
      'UTC',
    );
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const [header, first, second] = parse(csv.slice(1)) as string[][];
    expect(header).toContain('created (UTC)');
    expect(first?.[2]).toBe('\'=HYPERLINK("http://evil.example","click")');
    expect(first?.[13]).toBe('line one\nline "two", end');
    expect(first?.[3]).toBe('being handled');
    expect(first?.[6]).toBe('user');
    expect(first?.[11]).toBe('2026-11-19 16:30');
    expect(second?.[2]).toBe('账号被锁定');
    expect(second?.[3]).toBe('closed');
    expect(second?.[6]).toBe('agent');
    expect(second?.[13]).toBe("'-1+1");
  });
});

describe('renderTicketFilterModal', () => {
  it('offers every status and source by name, the last 7 days by default, within a modal’s limits', () => {
    const view = renderTicketFilterModal(
      'en',
      { from: '2026-11-19', to: '2026-11-25', timeZone: 'UTC' },
      '{"v":1}',
    );
    const json = JSON.stringify(view);
    expect(view.callback_id).toBe('ticket_filter');
    expect(json).toContain('"initial_date":"2026-11-19"');
    expect(json).toContain('enterprise-chat customer message');
    expect(json).toContain('waiting for reply');
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(view.title.text.length).toBeLessThanOrEqual(24);
  });
});

describe('a CSV that could not be made', () => {
  it('says whether the platform answered with an error or could not be reached', () => {
    expect(renderCsvNote('en', { kind: 'failure', reason: 'unreachable' })).toBe(
      'The CSV could not be made: the platform could not be reached. Try again in a moment.',
    );
    expect(renderCsvNote('en', { kind: 'failure', reason: 'unavailable' })).toBe(
      'The CSV could not be made: the platform answered with an error. Try again in a moment.',
    );
  });
});

describe('text quoted from the platform or a person', () => {
  it('is cut by characters, never inside an emoji, and escaped; in code, without backticks', () => {
    const emoji = '😀'.repeat(45);
    expect(codeText(emoji)).toBe(`${'😀'.repeat(39)}…`);
    expect(shown(emoji)).toBe(emoji);
    expect(codeText('a`b<c>&')).toBe("a'b&lt;c&gt;&amp;");
    expect(shown(`${'x'.repeat(98)} yz`)).toBe(`${'x'.repeat(98)}…`);
  });
});
