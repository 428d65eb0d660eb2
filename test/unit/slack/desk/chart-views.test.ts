// The questions-a-day chart in each language: its labels, its alt text, and the font holding them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHART_FONT } from '../../../../src/charts/chart-font.js';
import { type DailySeries, unansweredShares } from '../../../../src/service-desk/daily-statistics.js';
import { ticketsByGroup } from '../../../../src/service-desk/daily-tickets.js';
import { chartCharacters } from '../../../../src/slack/desk/chart-characters.js';
import {
  questionsChart,
  ratingsChart,
  renderChartNote,
  ticketsChart,
} from '../../../../src/slack/desk/chart-views.js';

const week: DailySeries = {
  period: { from: '2026-11-22', to: '2026-11-28' },
  previous: { from: '2026-11-15', to: '2026-11-21' },
  days: ['2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28'],
  current: [41, 1052, 47, 60, undefined, 33, 29],
  before: [38, 40, 45, 51, 49, 30, 22],
};

describe('the questions-a-day chart', () => {
  it('labels days with their weekday, in Chinese for a Chinese reader, and says which days are missing', () => {
    const { drawing } = questionsChart('zh-CN', week);
    expect(drawing.title).toBe('每日提问（客户消息）');
    expect(drawing.labels[0]).toBe('11月22日周日');
    expect(drawing.current.name).toBe('11月22日 – 11月28日');
    expect(drawing.previous.name).toBe('11月15日 – 11月21日（上一期）');
    expect(drawing.subtitle).toBe('1 天无数据');
    expect(questionsChart('en', week).drawing.labels[6]).toBe('Sat, Nov 28');
  });

  it('gives a month its dates alone, and no missing-days line when every day was read', () => {
    const days = Array.from({ length: 30 }, (_, index) => `2026-11-${String(index + 1).padStart(2, '0')}`);
    const month: DailySeries = {
      period: { from: '2026-11-01', to: '2026-11-30' },
      previous: { from: '2026-10-02', to: '2026-10-31' },
      days,
      current: days.map(() => 5),
      before: days.map(() => 4),
    };
    const { drawing } = questionsChart('en', month);
    expect(drawing.labels[0]).toBe('Nov 1');
    expect(drawing.subtitle).toBeUndefined();
  });

  it('states every figure in its alt text, the unknown day as unknown', () => {
    const { altText } = questionsChart('en', week);
    expect(altText).toContain('Nov 22 41, Nov 23 1,052, Nov 24 47, Nov 25 60, Nov 26 unknown');
    expect(altText).toContain('Total 1,262');
    expect(altText).toContain('the 7 days before (Nov 15 – Nov 21): 275');
    expect(questionsChart('zh-CN', week).altText).toContain('11月26日 未知');
  });

  it('offers Try again when the chart could not be made', () => {
    const note = renderChartNote('en', { kind: 'failed', period: week.period });
    expect(JSON.stringify(note.blocks)).toContain('"value":"2026-11-22/2026-11-28"');
  });
});

describe('the chart font', () => {
  it('holds every character the chart labels use, as cut by npm run charts:font', () => {
    const cut = readFileSync(CHART_FONT.charactersPath, 'utf8').replace(/\n$/, '');
    expect(cut).toBe(chartCharacters());
    const drawn = ['en', 'zh-CN'] as const;
    for (const locale of drawn) {
      const { drawing } = questionsChart(locale, week);
      const texts = [
        drawing.title,
        drawing.subtitle ?? '',
        drawing.current.name,
        drawing.previous.name,
        ...drawing.labels,
      ];
      const outside = [...texts.join('')].filter((character) => !cut.includes(character));
      expect(outside).toEqual([]);
    }
  });
});

describe('the ratings-a-day chart', () => {
  const series = {
    period: { from: '2026-11-26', to: '2026-11-28' },
    days: ['2026-11-26', '2026-11-27', '2026-11-28'],
    counts: [
      { up: 3, down: 1 },
      { up: 0, down: 0 },
      { up: 1, down: 1 },
    ],
  };

  it('draws each day’s 👍 and 👎 and the helpful share, none on a day without ratings', () => {
    const chart = ratingsChart('en', series);
    expect(chart?.drawing.up.values).toEqual([3, 0, 1]);
    expect(chart?.drawing.down.values).toEqual([1, 0, 1]);
    expect(chart?.drawing.rate.values).toEqual([75, undefined, 50]);
    expect(chart?.drawing.labels).toEqual(['Thu, Nov 26', 'Fri, Nov 27', 'Sat, Nov 28']);
    expect(chart?.filename).toBe('ratings-2026-11-26-2026-11-28.png');
  });

  it('states the counts in its alt text, in the reader’s language', () => {
    expect(ratingsChart('en', series)?.altText).toBe(
      'Chart of answers rated a day, Nov 26 – Nov 28: Nov 26 3 👍 1 👎, Nov 27 0 👍 0 👎, Nov 28 1 👍 1 👎. Total 4 helpful, 2 not helpful; 67% helpful.',
    );
    const chinese = ratingsChart('zh-CN', series);
    expect(chinese?.drawing.title).toBe('每日答案评价');
    expect(chinese?.altText).toContain('合计有帮助 4，没帮助 2；有帮助占比 67%。');
  });

  it('is not drawn for a period without a rating', () => {
    const none = { ...series, counts: series.counts.map(() => ({ up: 0, down: 0 })) };
    expect(ratingsChart('en', none)).toBeUndefined();
  });
});

describe('the unanswered share beside the questions', () => {
  const counted = (asked: number, unanswered: number) => ({ asked, unanswered });

  it('is a share a day of the questions counted, none on a day without, and nothing when neither period counted one', () => {
    const shares = unansweredShares([counted(4, 1), counted(0, 0)], [counted(2, 2), counted(0, 0)]);
    expect(shares?.current).toEqual([25, undefined]);
    expect(shares?.before).toEqual([100, undefined]);
    expect(unansweredShares([counted(0, 0)], [counted(0, 0)])).toBeUndefined();
  });

  it('is drawn as its own lines and stated after the questions in the alt text', () => {
    const unanswered = unansweredShares(
      [
        counted(10, 1),
        counted(10, 2),
        counted(0, 0),
        counted(0, 0),
        counted(0, 0),
        counted(0, 0),
        counted(0, 0),
      ],
      week.days.map(() => counted(0, 0)),
    );
    const { drawing, altText } = questionsChart('en', { ...week, unanswered });
    expect(drawing.share?.current).toEqual({
      name: 'Unanswered',
      values: [10, 20, undefined, undefined, undefined, undefined, undefined],
    });
    expect(altText).toMatch(/\. Unanswered: 15% of 20 questions counted here; unknown the period before\.$/);
    expect(questionsChart('zh-CN', { ...week, unanswered }).altText).toContain(
      '未回答：本期统计的 20 个问题中占 15%；上一期 未知。',
    );
    expect(questionsChart('en', week).drawing.share).toBeUndefined();
    // No question counted the period before: no line, and no legend entry, for it.
    expect(questionsChart('en', { ...week, unanswered }).drawing.share?.previous).toBeUndefined();
  });
});

describe('the tickets-a-day chart', () => {
  const at = (day: string, group?: string) => ({
    ticketId: `${day}-${group}`,
    createTime: Date.parse(`${day}T09:00:00Z`),
    ...(group === undefined ? {} : { dealGroupName: group }),
  });
  const tickets = [
    at('2026-11-26', 'IT Service Desk'),
    at('2026-11-27', 'IT Service Desk'),
    at('2026-11-27', 'IT Service Desk'),
    at('2026-11-27', 'HR Service'),
    at('2026-11-28'),
  ];
  const period = { from: '2026-11-26', to: '2026-11-28' };
  const series = ticketsByGroup(tickets, period, 'UTC');

  it('names each group’s bars, "No group" in the reader’s language, with dated labels', () => {
    const english = ticketsChart('en', series);
    expect(english?.drawing.title).toBe('Tickets opened a day, by group');
    expect(english?.drawing.groups.map((group) => [group.name, group.tone, group.values])).toEqual([
      ['IT Service Desk', 'group', [1, 2, 0]],
      ['HR Service', 'group', [0, 1, 0]],
      ['No group', 'none', [0, 0, 1]],
    ]);
    expect(english?.drawing.labels).toEqual(['Thu, Nov 26', 'Fri, Nov 27', 'Sat, Nov 28']);
    expect(english?.filename).toBe('tickets-2026-11-26-2026-11-28.png');
    const chinese = ticketsChart('zh-CN', series);
    expect(chinese?.drawing.title).toBe('每日新建工单（按处理组）');
    expect(chinese?.drawing.groups[2]?.name).toBe('无处理组');
    expect(chinese?.drawing.labels[0]).toBe('11月26日周四');
  });

  it('states each group’s total and the busiest day in its alt text, in the reader’s language', () => {
    expect(ticketsChart('en', series)?.altText).toBe(
      'Chart of tickets opened a day by handling group, Nov 26 – Nov 28: total 5; IT Service Desk 3, HR Service 1, No group 1. Busiest day: Fri, Nov 27, 3.',
    );
    expect(ticketsChart('zh-CN', series)?.altText).toContain(
      '合计 5；IT Service Desk 3，HR Service 1，无处理组 1。最多的一天：11月27日周五，3。',
    );
  });

  it('names "Other" with how many groups it holds, and keeps long alt text within Slack’s limit', () => {
    const many = Array.from({ length: 40 }, (_, index) => at('2026-11-27', `Group number ${index} of many`));
    const chart = ticketsChart('zh-CN', ticketsByGroup(many, period, 'UTC'));
    expect(chart?.drawing.groups.map((group) => group.name).at(-1)).toBe('其他');
    expect(chart?.altText).toContain('其他处理组（35 个）35');
    expect(chart?.altText.length).toBeLessThanOrEqual(1000);
  });

  it('draws a name no font holds as a placeholder, and names it in the alt text', () => {
    // Ethiopic: neither the shipped subset nor the system's Noto Sans CJK has it.
    const chart = ticketsChart('en', ticketsByGroup([at('2026-11-27', 'ሰላም')], period, 'UTC'));
    expect(chart?.drawing.groups[0]?.name).toBe('Group 1');
    expect(chart?.altText).toContain('Group 1 (ሰላም) 1');
  });

  it('is not drawn for a period without a ticket', () => {
    expect(ticketsChart('en', ticketsByGroup([], period, 'UTC'))).toBeUndefined();
  });

  it('says, under the figures, which chart is missing and why', () => {
    const note = renderChartNote('zh-CN', { kind: 'sent', ticketsMissing: 'unreachable' });
    expect(note.text).toContain('缺少每日新建工单图表：无法连接平台读取工单列表');
    expect(renderChartNote('en', { kind: 'sent', ticketsMissing: 'refused' }).text).toContain(
      'The chart of tickets opened a day is missing: the platform refused the ticket list query.',
    );
    expect(renderChartNote('en', { kind: 'sent', ticketsMissing: 'drawing' }).text).toContain(
      'The chart of tickets opened a day is missing: it could not be drawn this time.',
    );
  });
});
