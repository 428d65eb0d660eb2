// The Home tab as Block Kit, pure; operators' figures, cards and channels only for operators.
import type { types } from '@slack/bolt';
import { escapeMrkdwn } from '../../answer-html/mrkdwn.js';
import type { Locale } from '../../conversation/locale.js';
import type { HomeFigures } from '../../service-desk/home-figures.js';
import type { Figure } from '../../service-desk/statistics.js';
import type { StoredChannelSettings } from '../channels/stores.js';
import { renderHomeChannels } from '../channels/views.js';
import { figureText } from '../desk/command-views.js';
import { ACTION_HOME_OPEN_STATISTICS, ACTION_HOME_OPEN_TICKETS } from '../desk/ids.js';
import { BLOCK_KIT } from '../kit/block-kit-limits.js';
import { button, context, mrkdwn, plainText, section } from '../kit/elements.js';
import {
  BUTTON_VALUE_MAX,
  SECTION_TEXT_MAX,
  truncate,
  truncateCharacters,
  truncateMrkdwn,
} from '../kit/limits.js';
import { sharedTime } from '../kit/times.js';
import { renderHomeSetup, type SetupStatus } from '../setup/views.js';
import { homeExampleActionId } from './ids.js';
import { t } from './messages.js';

export const HOME_BLOCKS_MAX = BLOCK_KIT.view.blocks;
/** HOME_EXAMPLE_QUESTIONS allows as many. */
const EXAMPLES_MAX = 5;
/** The Home is a glance: the review channel has the rest. */
export const HOME_CARDS_LISTED = 3;
const HEADER_TEXT_MAX = BLOCK_KIT.header.text;
const CARD_TEXT_MAX = 80;

export interface HomeCard {
  text: string;
  count: number;
  link: string | undefined;
}

export type HomeReview =
  | { kind: 'off' }
  /** Installed in many workspaces: this one names no review channel in its set-up (and none is the default). */
  | { kind: 'no_channel' }
  | { kind: 'unavailable' }
  | {
      kind: 'cards';
      disliked: { total: number; cards: HomeCard[] };
      unanswered: { total: number; cards: HomeCard[] };
    };

export interface HomeOperatorPart {
  figures: HomeFigures;
  review: HomeReview;
  channels: ReadonlyMap<string, StoredChannelSettings>;
  /** For the lines that say how to set a channel up. */
  command: string;
  /** Installed in many workspaces: this one's platform account. */
  setup?: SetupStatus;
}

export interface HomeContent {
  locale: Locale;
  /** UTC when unknown. */
  timeZone?: string | undefined;
  examples: readonly string[];
  /** Nobody else sees figures, cards or questions. */
  operator?: HomeOperatorPart | undefined;
}

/** Questions the robot (and the demo simulator) answers. */
const DEFAULT_EXAMPLES: Record<Locale, readonly string[]> = {
  en: [
    'How do I reset my password?',
    'How do I connect to the VPN?',
    'How do I request annual leave?',
    'When is payday?',
  ],
  'zh-CN': ['忘记密码怎么办？', '如何连接公司VPN？', '如何申请请假？', '工资什么时候发？'],
};

/** Configured ones in every language, else the viewer's language's defaults. */
export function homeExamples(configured: readonly string[] | undefined, locale: Locale): readonly string[] {
  return configured !== undefined && configured.length > 0 ? configured : DEFAULT_EXAMPLES[locale];
}

/** views.publish takes it as a HomeView. */
interface HomeView {
  type: 'home';
  blocks: types.KnownBlock[];
}

export function renderHome(content: HomeContent): HomeView {
  const { locale } = content;
  const blocks: types.KnownBlock[] = [
    { type: 'header', text: plainText(t(locale, 'home_title'), HEADER_TEXT_MAX) },
    section(t(locale, 'home_how_to_ask')),
    ...exampleBlocks(locale, content.examples),
  ];
  if (content.operator) blocks.push(...operatorBlocks(locale, content.timeZone ?? 'UTC', content.operator));
  return { type: 'home', blocks: blocks.slice(0, HOME_BLOCKS_MAX) };
}

function exampleBlocks(locale: Locale, examples: readonly string[]): types.KnownBlock[] {
  const shown = examples.slice(0, EXAMPLES_MAX).filter((question) => question.trim() !== '');
  if (shown.length === 0) return [];
  return [
    section(t(locale, 'home_examples')),
    {
      type: 'actions',
      block_id: 'home_examples',
      // The value holds the question whole: the click asks exactly it.
      elements: shown.map((question, index) =>
        button(question, homeExampleActionId(index), { value: truncate(question, BUTTON_VALUE_MAX) }),
      ),
    },
  ];
}

function operatorBlocks(locale: Locale, timeZone: string, part: HomeOperatorPart): types.KnownBlock[] {
  return [
    { type: 'divider' },
    { type: 'header', text: plainText(t(locale, 'home_operators'), HEADER_TEXT_MAX) },
    ...(part.setup ? [...renderHomeSetup(locale, timeZone, part.setup), { type: 'divider' } as const] : []),
    ...figureBlocks(locale, timeZone, part.figures),
    { type: 'divider' },
    ...reviewBlocks(locale, part.review),
    { type: 'divider' },
    ...renderHomeChannels(locale, part.channels, part.command),
    {
      type: 'actions',
      block_id: 'home_operator_views',
      elements: [
        button(t(locale, 'home_open_tickets'), ACTION_HOME_OPEN_TICKETS),
        button(t(locale, 'home_open_statistics'), ACTION_HOME_OPEN_STATISTICS),
      ],
    },
  ];
}

/** `/cs stats` and the statistics view have them all. */
const KEY_FIGURES: readonly Figure['key'][] = [
  'totalMessages',
  'robotShare',
  'effectiveSessions',
  'resolvedRate',
  'averageScore',
  'goodRate',
];

function figureBlocks(locale: Locale, timeZone: string, figures: HomeFigures): types.KnownBlock[] {
  if (figures.kind === 'unavailable') {
    return [section(t(locale, 'home_figures_unavailable', { reason: figures.reason }))];
  }
  const { report } = figures;
  const all = [...report.messages, ...report.satisfaction];
  const shown = KEY_FIGURES.flatMap((key) => all.filter((figure) => figure.key === key));
  const time = sharedTime(figures.at, locale, timeZone);
  return [
    {
      type: 'section',
      text: mrkdwn(t(locale, 'home_figures_title', { from: report.period.from, to: report.period.to })),
      fields: shown.map((figure) => mrkdwn(figureText(locale, figure))),
    },
    context(
      report.previousMissing
        ? t(locale, 'home_figures_no_comparison', { time })
        : t(locale, 'home_figures_compared', { from: report.previous.from, to: report.previous.to, time }),
    ),
  ];
}

function reviewBlocks(locale: Locale, review: HomeReview): types.KnownBlock[] {
  switch (review.kind) {
    case 'off':
      return [context(t(locale, 'home_review_off'))];
    case 'no_channel':
      return [context(t(locale, 'home_review_no_channel'))];
    case 'unavailable':
      return [section(t(locale, 'home_review_unavailable'))];
    case 'cards':
      break;
  }
  const { disliked, unanswered } = review;
  const total = disliked.total + unanswered.total;
  if (total === 0) return [section(t(locale, 'home_cards_none'))];
  const blocks: types.KnownBlock[] = [
    section(
      t(locale, 'home_cards_waiting', {
        count: total,
        disliked: disliked.total,
        unanswered: unanswered.total,
      }),
    ),
  ];
  const list = (title: string, cards: HomeCard[], line: (text: string, count: number) => string) => {
    if (cards.length === 0) return;
    const lines = cards.slice(0, HOME_CARDS_LISTED).map((card) => line(cardText(card), card.count));
    blocks.push(section(truncateMrkdwn([title, ...lines].join('\n'), SECTION_TEXT_MAX)));
  };
  list(t(locale, 'home_disliked_title'), disliked.cards, (title, count) =>
    t(locale, 'home_disliked_line', { title, count }),
  );
  list(t(locale, 'home_unanswered_title'), unanswered.cards, (question, count) =>
    t(locale, 'home_unanswered_line', { question, count }),
  );
  const listed =
    Math.min(disliked.cards.length, HOME_CARDS_LISTED) + Math.min(unanswered.cards.length, HOME_CARDS_LISTED);
  if (total > listed) blocks.push(context(t(locale, 'home_more', { count: total - listed })));
  return blocks;
}

/** Shown as text, never as markup; linked only when the link is Slack's. */
function cardText(card: HomeCard): string {
  const text = escapeMrkdwn(truncateCharacters(card.text.replace(/\s+/g, ' ').trim(), CARD_TEXT_MAX));
  return card.link !== undefined && /^https:\/\/[^\s|<>]+$/.test(card.link) ? `<${card.link}|${text}>` : text;
}
