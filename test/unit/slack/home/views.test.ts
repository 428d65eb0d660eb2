import { describe, expect, it } from 'vitest';
import type { HomeFigures } from '../../../../src/service-desk/home-figures.js';
import type { Figure } from '../../../../src/service-desk/statistics.js';
import {
  HOME_BLOCKS_MAX,
  type HomeCard,
  type HomeContent,
  homeExamples,
  renderHome,
} from '../../../../src/slack/home/views.js';
import { SECTION_TEXT_MAX } from '../../../../src/slack/kit/limits.js';

const AT = Date.parse('2026-11-25T12:00:00Z');

function figure(key: Figure['key'], kind: Figure['kind'], current?: number, previous?: number): Figure {
  return { key, kind, current, previous };
}

const report: HomeFigures = {
  kind: 'report',
  at: AT,
  report: {
    period: { from: '2026-11-19', to: '2026-11-25' },
    previous: { from: '2026-11-12', to: '2026-11-18' },
    messages: [
      figure('totalMessages', 'count', 12_345, 12_135),
      figure('robotMessages', 'count', 9_000, 8_000),
      figure('robotShare', 'percent', 72.9, 65.9),
      figure('customerMessages', 'count', 3_000, 3_000),
    ],
    satisfaction: [
      figure('effectiveSessions', 'count', 100, 100),
      figure('resolvedRate', 'percent', 80, 85.5),
      figure('averageScore', 'average', 3.5, undefined),
      figure('goodRate', 'percent', undefined, 50),
      figure('score1', 'count', 4, 2),
    ],
    previousMissing: false,
  },
};

const card = (text: string, count: number, link?: string): HomeCard => ({ text, count, link });

const operator: HomeContent['operator'] = {
  figures: report,
  review: {
    kind: 'cards',
    disliked: {
      total: 4,
      cards: [
        card('How do I reset my password?', 5, 'https://acme.slack.com/archives/C0REVIEW/p100'),
        card('VPN <!channel> & co', 2, 'javascript:alert(1)|x'),
      ],
    },
    unanswered: { total: 1, cards: [card('Which llama grooms alpacas on Mars?', 3)] },
  },
  channels: new Map([
    [
      'C0ITHELP',
      {
        settings: { robot: 2, answer: 'questions', escalate: { users: [], groups: ['S0ONCALL'] } },
        changedBy: 'U0OPERATOR',
        changedAt: AT,
      },
    ],
  ]),
  command: '/cs',
};

const json = (value: unknown) => JSON.stringify(value);

/** Every action id of the view's buttons. */
function actionIds(view: ReturnType<typeof renderHome>): string[] {
  return view.blocks.flatMap((block) =>
    block.type === 'actions' ? block.elements.map((element) => String(element.action_id)) : [],
  );
}

describe('renderHome', () => {
  it('shows everyone how to ask and the example questions as buttons, and nothing of the operators', () => {
    const view = renderHome({ locale: 'en', examples: ['How do I reset my password?', 'Laptop, phone?'] });
    expect(view.type).toBe('home');
    const shown = json(view);
    expect(shown).toContain('How to ask');
    expect(shown).toContain('mention me');
    expect(shown).toContain('follow-up');
    expect(actionIds(view)).toEqual(['home_example:0', 'home_example:1']);
    const examples = view.blocks.find((block) => block.type === 'actions');
    expect(
      examples?.type === 'actions' && examples.elements.map((element) => 'value' in element && element.value),
    ).toEqual(['How do I reset my password?', 'Laptop, phone?']);
    expect(shown).not.toContain('Last 7 days');
    expect(shown).not.toContain('home_open_tickets');
  });

  it('says when the figures were read in the viewer’s own time zone, as people read times', () => {
    const shown = json(renderHome({ locale: 'en', timeZone: 'America/New_York', examples: [], operator }));
    expect(shown).toContain('|25 Nov 2026, 07:00>');
    expect(shown).not.toMatch(/\d{4}-\d{2}-\d{2}T|\|12:00 UTC/);
    const chinese = json(renderHome({ locale: 'zh-CN', timeZone: 'Asia/Shanghai', examples: [], operator }));
    expect(chinese).toContain('|2026年11月25日 20:00>');
  });

  it('gives an operator the key figures with their arrows, the cards waiting, the questions, and the two buttons', () => {
    const view = renderHome({ locale: 'en', examples: ['Q?'], operator });
    const shown = json(view);
    expect(shown).toContain('*Last 7 days*, 2026-11-19 – 2026-11-25');
    expect(shown).toContain('*Total messages*\\n12,345   ↑ +210');
    expect(shown).toContain('*Robot share*\\n72.9%   ↑ +7.0 pp');
    expect(shown).toContain('*Effective sessions*\\n100   → ±0');
    expect(shown).toContain('*Resolved*\\n80.0%   ↓ −5.5 pp');
    expect(shown).toContain('*Average score*\\n3.50');
    expect(shown).toContain('*Good*\\n—');
    // A glance: not every figure.
    expect(shown).not.toContain('Score 1');
    expect(shown).toContain('Beside the 7 days before (2026-11-12 – 2026-11-18) · as of <!date^');
    expect(shown).toContain('|25 Nov 2026, 12:00 UTC>');
    expect(shown).toContain('Review cards waiting: 5*  ·  👎 4 disliked  ·  ❓ 1 unanswered');
    expect(shown).toContain(
      '• <https://acme.slack.com/archives/C0REVIEW/p100|How do I reset my password?> · 👎 5',
    );
    // Text from askers is text: no ping, no link smuggled through a bad URL.
    expect(shown).toContain('• VPN &lt;!channel&gt; &amp; co · 👎 2');
    expect(shown).not.toContain('javascript:');
    expect(shown).toContain(
      '*Most asked unanswered questions*\\n• Which llama grooms alpacas on Mars? · asked 3×',
    );
    expect(shown).toContain('…and 2 more in the review channel.');
    expect(actionIds(view)).toEqual(['home_example:0', 'home_open_tickets', 'home_open_statistics']);
  });

  it('says when the figures are unavailable, when there is no comparison, and when the review loop is off', () => {
    const unavailable = json(
      renderHome({
        locale: 'en',
        examples: [],
        operator: {
          figures: { kind: 'unavailable', reason: 'unreachable', at: AT },
          review: { kind: 'off' },
          channels: new Map(),
          command: '/cs',
        },
      }),
    );
    expect(unavailable).toContain('The figures are unavailable right now');
    expect(unavailable).toContain('The review loop is off');
    expect(unavailable).toContain('home_open_statistics');
    const alone =
      report.kind === 'report' ? { ...report, report: { ...report.report, previousMissing: true } } : report;
    expect(
      json(
        renderHome({
          locale: 'en',
          examples: [],
          operator: { figures: alone, review: { kind: 'unavailable' }, channels: new Map(), command: '/cs' },
        }),
      ),
    ).toContain('no comparison');
    const none = renderHome({
      locale: 'en',
      examples: [],
      operator: {
        figures: report,
        review: { kind: 'cards', disliked: { total: 0, cards: [] }, unanswered: { total: 0, cards: [] } },
        channels: new Map(),
        command: '/cs',
      },
    });
    expect(json(none)).toContain('No review cards waiting.');
  });

  it('speaks Chinese to a Chinese viewer', () => {
    const shown = json(renderHome({ locale: 'zh-CN', examples: homeExamples(undefined, 'zh-CN'), operator }));
    expect(shown).toContain('如何提问');
    expect(shown).toContain('忘记密码怎么办？');
    expect(shown).toContain('*最近 7 天*');
    expect(shown).toContain('消息总数');
    expect(shown).toContain('被问 3 次');
  });

  it('stays within the limits of a Home view, whatever the examples and cards hold', () => {
    const long = 'x'.repeat(5_000);
    const many = Array.from({ length: 50 }, (_, index) => card(`${long}${index}`, index));
    const view = renderHome({
      locale: 'en',
      examples: Array.from({ length: 20 }, () => long),
      operator: {
        figures: report,
        review: {
          kind: 'cards',
          disliked: { total: 5_000, cards: many },
          unanswered: { total: 5_000, cards: many },
        },
        channels: new Map(
          Array.from({ length: 500 }, (_, index) => [
            `C${index}`,
            {
              settings: { robot: index, askers: { users: [], groups: [`S${long.slice(0, 200)}`] } },
              changedBy: 'U1',
              changedAt: AT + index,
            },
          ]),
        ),
        command: '/cs',
      },
    });
    expect(view.blocks.length).toBeLessThanOrEqual(HOME_BLOCKS_MAX);
    expect(actionIds(view).filter((id) => id.startsWith('home_example:'))).toHaveLength(5);
    for (const block of view.blocks) {
      if (block.type === 'section' && block.text)
        expect(block.text.text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX);
      if (block.type === 'header') expect(block.text.text.length).toBeLessThanOrEqual(150);
      if (block.type === 'actions') {
        for (const element of block.elements) {
          if (element.type === 'button') expect(element.text.text.length).toBeLessThanOrEqual(75);
        }
      }
    }
  });
});

describe('homeExamples', () => {
  it('takes the configured questions in every language, else the viewer’s language’s defaults', () => {
    expect(homeExamples(['Mine?'], 'zh-CN')).toEqual(['Mine?']);
    expect(homeExamples(undefined, 'en')).toContain('How do I reset my password?');
    expect(homeExamples([], 'zh-CN')).toContain('忘记密码怎么办？');
  });
});

describe('the Home’s channels', () => {
  it('lists each channel with settings of its own to operators, with what it set', () => {
    const shown = json(renderHome({ locale: 'en', examples: [], operator }));
    expect(shown).toContain('Channels with settings of their own');
    expect(shown).toContain('<#C0ITHELP>  `robot:2` `answer:questions` `escalate:` <!subteam^S0ONCALL>');
  });

  it('says when there are none, and shows nothing of them to anyone else', () => {
    const none = json(
      renderHome({ locale: 'en', examples: [], operator: { ...operator, channels: new Map() } }),
    );
    expect(none).toContain('None yet: every channel has the defaults.');
    // The configured command, not /cs.
    const renamed = json(
      renderHome({
        locale: 'zh-CN',
        examples: [],
        operator: { ...operator, channels: new Map(), command: '/helpdesk' },
      }),
    );
    expect(renamed).toContain('`/helpdesk channel`');
    expect(renamed).not.toContain('/cs');
    expect(json(renderHome({ locale: 'en', examples: [] }))).not.toContain('C0ITHELP');
  });
});
