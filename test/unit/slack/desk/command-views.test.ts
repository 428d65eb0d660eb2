import type { types } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import type { Figure } from '../../../../src/service-desk/statistics.js';
import {
  figureText,
  renderAgentGroups,
  renderAgents,
  renderStatistics,
  renderStatisticsProblem,
} from '../../../../src/slack/desk/command-views.js';
import { SECTION_TEXT_MAX, SERIALIZED_BLOCKS_BUDGET } from '../../../../src/slack/kit/limits.js';

const texts = (blocks: types.KnownBlock[]) => JSON.stringify(blocks);

describe('renderAgents', () => {
  it('cannot ping a channel through a name, nor break out of code through an id', () => {
    const { blocks } = renderAgents(
      'en',
      '/cs',
      { kind: 'agents', groupId: 'g`x', agents: [{ id: 's`1', name: '*Bold* <!channel> & co' }] },
      [],
    );
    const shown = texts(blocks);
    expect(shown).toContain('&lt;!channel&gt; &amp; co');
    expect(shown).not.toContain('<!channel>');
    expect(shown).toContain("`s'1`");
  });

  it('keeps a very large group within one message, and says how many more there are', () => {
    const agents = Array.from({ length: 3_000 }, (_, index) => ({
      id: `s-${String(index).padStart(5, '0')}`,
      name: `Agent number ${index} with a long family name`,
    }));
    const { blocks } = renderAgents('en', '/cs', { kind: 'agents', groupId: 'g-big', agents }, []);
    expect(JSON.stringify(blocks).length).toBeLessThanOrEqual(SERIALIZED_BLOCKS_BUDGET);
    expect(blocks.length).toBeLessThanOrEqual(50);
    for (const block of blocks) {
      if (block.type === 'section' && block.text)
        expect(block.text.text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX);
    }
    const more = blocks.at(-1);
    expect(more?.type).toBe('context');
    expect(JSON.stringify(more)).toMatch(/and \d{1,3}(,\d{3})* more/);
  });
});

const GROUPS = [
  { id: 'g-it', name: 'IT Service Desk' },
  { id: 'g-hr', name: 'HR Service' },
];

function buttonsIn(blocks: types.KnownBlock[]): { text: string; value: string; actionId: string }[] {
  return blocks.flatMap((block) =>
    block.type === 'actions'
      ? block.elements.flatMap((element) =>
          element.type === 'button'
            ? [{ text: element.text.text, value: element.value ?? '', actionId: element.action_id ?? '' }]
            : [],
        )
      : [],
  );
}

describe('the named service groups', () => {
  it('are offered as buttons, each with an id of its own and its group in the value', () => {
    const { blocks } = renderAgentGroups('en', '/cs', GROUPS);
    expect(buttonsIn(blocks)).toEqual([
      { text: 'IT Service Desk', value: 'g-it', actionId: 'agents_group:0' },
      { text: 'HR Service', value: 'g-hr', actionId: 'agents_group:1' },
    ]);
  });

  it('fit Slack’s 25 buttons a row when there are many', () => {
    const many = Array.from({ length: 60 }, (_, index) => ({ id: `g-${index}`, name: `Group ${index}` }));
    const { blocks } = renderAgentGroups('en', '/cs', many);
    const rows = blocks.filter((block) => block.type === 'actions');
    expect(rows.map((row) => (row.type === 'actions' ? row.elements.length : 0))).toEqual([25, 25, 10]);
    expect(new Set(buttonsIn(blocks).map((button) => button.actionId)).size).toBe(60);
  });

  it('name a group by its name in the result, not by its id', () => {
    const { text } = renderAgents(
      'en',
      '/cs',
      { kind: 'agents', groupId: 'g-it', agents: [{ id: 's-1', name: 'Alice' }] },
      GROUPS,
    );
    expect(text).toBe('Agents of IT Service Desk (1)');
  });
});

describe('a failure to list agents or read statistics', () => {
  it('tells a platform that could not be reached from one that answered with an error, with Try again', () => {
    const unreachable = renderAgents(
      'en',
      '/cs',
      { kind: 'failure', groupId: 'g-it', reason: 'unreachable' },
      GROUPS,
    );
    const unavailable = renderAgents(
      'en',
      '/cs',
      { kind: 'failure', groupId: 'g-it', reason: 'unavailable' },
      GROUPS,
    );
    expect(unreachable.text).toContain('could not be reached');
    expect(unavailable.text).toContain('answered with an error');
    expect(unavailable.text).not.toContain('could not be reached');
    expect(buttonsIn(unreachable.blocks)).toEqual([
      { text: 'Try again', value: 'g-it', actionId: 'agents_retry' },
    ]);

    const stats = renderStatisticsProblem('en', '/cs', {
      kind: 'failure',
      reason: 'unreachable',
      retry: { from: '2026-11-01', to: '2026-11-07' },
    });
    expect(stats.text).toContain('could not be reached');
    expect(buttonsIn(stats.blocks)).toEqual([
      { text: 'Try again', value: '2026-11-01/2026-11-07', actionId: 'stats_retry' },
    ]);
    const answered = renderStatisticsProblem('zh-CN', '/cs', { kind: 'failure', reason: 'unavailable' });
    expect(answered.text).toContain('平台返回了错误');
    expect(buttonsIn(answered.blocks)).toEqual([]);
  });
});

describe('a figure', () => {
  const figure = (overrides: Partial<Figure>): Figure => ({
    key: 'totalMessages',
    kind: 'count',
    current: 5751,
    previous: 5541,
    ...overrides,
  });

  it('groups thousands in both languages', () => {
    expect(figureText('en', figure({}))).toBe('*Total messages*\n5,751   ↑ +210');
    expect(figureText('zh-CN', figure({}))).toContain('5,751');
  });

  it('shows every percentage with the same precision', () => {
    const seven = figureText(
      'en',
      figure({ key: 'goodRate', kind: 'percent', current: 7, previous: undefined }),
    );
    const eight = figureText(
      'en',
      figure({ key: 'goodRate', kind: 'percent', current: 8.1, previous: undefined }),
    );
    expect(seven).toBe('*Good*\n7.0%');
    expect(eight).toBe('*Good*\n8.1%');
  });

  it('says whether a change is better or worse where one way is good news', () => {
    const bad = figure({ key: 'badRate', kind: 'percent', current: 9, previous: 8, better: 'lower' });
    const resolved = figure({
      key: 'resolvedRate',
      kind: 'percent',
      current: 90,
      previous: 80,
      better: 'higher',
    });
    expect(figureText('en', bad)).toBe('*Bad*\n9.0%   ↑ +1.0 pp · worse');
    expect(figureText('en', resolved)).toBe('*Resolved*\n90.0%   ↑ +10.0 pp · better');
    expect(figureText('zh-CN', bad)).toContain('变差');
    // Volumes are neither.
    expect(figureText('en', figure({}))).not.toMatch(/better|worse/);
  });
});

describe('the statistics of a single day', () => {
  it('are compared with the day before, never "the 1 days before", in both languages', () => {
    const report = {
      period: { from: '2026-11-05', to: '2026-11-05' },
      previous: { from: '2026-11-04', to: '2026-11-04' },
      messages: [],
      satisfaction: [],
      previousMissing: false,
    };
    const english = JSON.stringify(renderStatistics('en', report).blocks);
    expect(english).toContain('Each figure beside 2026-11-04 – 2026-11-04, the day before.');
    expect(english).not.toMatch(/1 days/);
    expect(JSON.stringify(renderStatistics('zh-CN', report).blocks)).toContain('之前 1 天');
  });
});
