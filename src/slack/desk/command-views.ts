// What the slash command shows: its help and its results, as Block Kit within Slack's limits.
import type { types } from '@slack/bolt';
import type { Locale } from '../../conversation/locale.js';
import { type AgentGroup, agentGroupName } from '../../service-desk/agent-groups.js';
import type { AgentsResult } from '../../service-desk/agents.js';
import { CHART_DAYS_MAX } from '../../service-desk/daily-statistics.js';
import type { DeskFailureKind } from '../../service-desk/platform-failure.js';
import {
  type Figure,
  type FigureKind,
  type Period,
  STATISTICS_DAYS_MAX,
  type StatisticsReport,
} from '../../service-desk/statistics.js';
import { daysBetween } from '../../util/time-zone.js';
import { BLOCK_KIT } from '../kit/block-kit-limits.js';
import { button, context, mrkdwn, type RenderedMessage } from '../kit/elements.js';
import { ACTIONS_ELEMENTS_MAX, SECTION_TEXT_MAX, SERIALIZED_BLOCKS_BUDGET } from '../kit/limits.js';
import { modal } from '../kit/modal.js';
import { ACTION_AGENTS_RETRY, ACTION_STATS_RETRY, agentsGroupActionId, periodValue } from './ids.js';
import { t } from './messages.js';
import { codeText, filterWords, fittedSection, shown } from './ticket-views.js';

type KnownBlock = types.KnownBlock;

/** Room the list may take in one message, leaving some for the header and the "more" line. */
const LIST_BUDGET = SERIALIZED_BLOCKS_BUDGET - 1_000;

function message(text: string, blocks: KnownBlock[] = [fittedSection(text)]): RenderedMessage {
  return { text, blocks };
}

/** Try again under a failure: `value` says what to ask for again. */
function tryAgain(locale: Locale, actionId: string, value: string): KnownBlock {
  return {
    type: 'actions',
    elements: [button(t(locale, 'cs_try_again'), actionId, { value, style: 'primary' })],
  };
}

/** The desk's help, then what the other surfaces' subcommands do. */
export function renderCommandHelp(
  locale: Locale,
  command: string,
  surfaceHelp: readonly string[] = [],
): RenderedMessage {
  return message(
    [t(locale, 'cs_help', { command, chartDays: CHART_DAYS_MAX, ...filterWords() }), ...surfaceHelp].join(
      '\n',
    ),
  );
}

export function renderAgentsUsage(locale: Locale, command: string): RenderedMessage {
  return message(t(locale, 'cs_agents_usage', { command }));
}

/** `items` in runs of at most `size`, in order: as many per block as Slack takes. */
function runsOf<Item>(items: readonly Item[], size: number): Item[][] {
  const runs: Item[][] = [];
  for (let start = 0; start < items.length; start += size) runs.push(items.slice(start, start + size));
  return runs;
}

/** The named groups as buttons, at most Slack's 25 per actions block; a click lists the group's agents. */
function groupButtons(groups: readonly AgentGroup[]): KnownBlock[] {
  const buttons = groups.map((group, index) =>
    button(group.name, agentsGroupActionId(index), { value: group.id }),
  );
  return runsOf(buttons, ACTIONS_ELEMENTS_MAX).map((elements) => ({ type: 'actions', elements }));
}

/** `/cs agents` alone, or a name that is none of them: the groups to pick from. */
export function renderAgentGroups(
  locale: Locale,
  command: string,
  groups: readonly AgentGroup[],
  unknown?: string,
): RenderedMessage {
  const text =
    unknown === undefined
      ? t(locale, 'cs_agents_pick', { command })
      : t(locale, 'cs_agents_unknown', { typed: codeText(unknown), command });
  return { text: text.replace(/\*/g, ''), blocks: [fittedSection(text), ...groupButtons(groups)] };
}

function groupLabel(groupId: string, name: string | undefined): string {
  return name === undefined ? `\`${codeText(groupId)}\`` : `*${shown(name)}*`;
}

/** A group's agents, or why none show: a failure offers Try again; an empty group lists the named ones. */
export function renderAgents(
  locale: Locale,
  command: string,
  result: AgentsResult,
  groups: readonly AgentGroup[],
): RenderedMessage {
  const group = groupLabel(result.groupId, agentGroupName(groups, result.groupId));
  switch (result.kind) {
    case 'none': {
      const text = t(locale, 'cs_agents_none', { group });
      return groups.length === 0
        ? message(text)
        : message(text, [fittedSection(text), ...renderAgentGroups(locale, command, groups).blocks]);
    }
    case 'invalid_group':
      return message(t(locale, 'cs_agents_invalid', { group: codeText(result.groupId) }));
    case 'failure': {
      const text = t(locale, 'cs_agents_failure', { reason: result.reason, group });
      return {
        text: text.replace(/\*/g, ''),
        blocks: [fittedSection(text), tryAgain(locale, ACTION_AGENTS_RETRY, result.groupId)],
      };
    }
    case 'agents':
      break;
  }
  const header = t(locale, 'cs_agents_header', { group, count: result.agents.length });
  const sections: string[] = [];
  let current = '';
  let listed = 0;
  let used = 0;
  for (const agent of result.agents) {
    const line = `• ${shown(agent.name)}  \`${codeText(agent.id)}\``;
    // JSON escaping and the block around each section: counted generously.
    used += line.length * 2 + 1;
    if (used > LIST_BUDGET) break;
    if (current !== '' && current.length + 1 + line.length > SECTION_TEXT_MAX) {
      sections.push(current);
      current = '';
      used += 100;
    }
    current = current === '' ? line : `${current}\n${line}`;
    listed += 1;
  }
  if (current !== '') sections.push(current);
  const blocks: KnownBlock[] = [fittedSection(header), ...sections.map(fittedSection)];
  const rest = result.agents.length - listed;
  if (rest > 0) blocks.push(context(t(locale, 'cs_agents_more', { count: rest })));
  return { text: header.replace(/\*/g, ''), blocks };
}

/** Fields a section block holds at most. */
const SECTION_FIELDS_MAX = BLOCK_KIT.section.fields;

/** Digits shown after the point: whole counts, two for averages, one for every percentage (7.0% beside 8.1%). */
function digitsOf(kind: FigureKind): number {
  return kind === 'count' ? 0 : kind === 'average' ? 2 : 1;
}

function numberFormat(locale: Locale, kind: FigureKind): Intl.NumberFormat {
  const digits = digitsOf(kind);
  return new Intl.NumberFormat(locale, {
    maximumFractionDigits: digits,
    minimumFractionDigits: digits,
    useGrouping: true,
  });
}

/** The figure, then how it moved since the period before and whether that is better ("12,345  ↑ +210"). */
export function figureText(locale: Locale, figure: Figure): string {
  const format = numberFormat(locale, figure.kind);
  const suffix = figure.kind === 'percent' ? '%' : '';
  const label = t(locale, `figure_${figure.key}`);
  if (figure.current === undefined) return `*${label}*\n—`;
  const value = `${format.format(figure.current)}${suffix}`;
  if (figure.previous === undefined) return `*${label}*\n${value}`;
  const change = figure.current - figure.previous;
  // "No change" is what the reader sees: a difference too small to show in the figure's digits.
  const unchanged = Math.round(Math.abs(change) * 10 ** digitsOf(figure.kind)) === 0;
  const arrow = unchanged ? '→' : change > 0 ? '↑' : '↓';
  const sign = unchanged ? '±' : change > 0 ? '+' : '−';
  const unit = figure.kind === 'percent' ? t(locale, 'unit_percentage_points') : '';
  const moved = `${value}   ${arrow} ${sign}${format.format(Math.abs(change))}${unit}`;
  if (unchanged || figure.better === undefined) return `*${label}*\n${moved}`;
  const better = change > 0 === (figure.better === 'higher');
  return `*${label}*\n${moved} · ${t(locale, better ? 'change_better' : 'change_worse')}`;
}

function fieldsSections(heading: string, locale: Locale, figures: Figure[]): KnownBlock[] {
  const fields = figures.map((figure) => mrkdwn(figureText(locale, figure)));
  const sections = runsOf(fields, SECTION_FIELDS_MAX).map(
    (run): KnownBlock => ({ type: 'section', fields: run }),
  );
  return [fittedSection(heading), ...sections];
}

/** Statistics as shown: the figures, or why none came; `chartPeriod` when charts are to follow them. */
export interface StatisticsShown {
  message: RenderedMessage;
  chartPeriod?: Period | undefined;
}

export function renderStatistics(locale: Locale, report: StatisticsReport): RenderedMessage {
  const title = t(locale, 'cs_stats_title', { from: report.period.from, to: report.period.to });
  const days = daysBetween(report.period.from, report.period.to) + 1;
  const note = report.previousMissing
    ? t(locale, 'cs_stats_no_comparison')
    : t(locale, 'cs_stats_compared', { from: report.previous.from, to: report.previous.to, days });
  const scores = report.satisfaction.filter((figure) => figure.key.startsWith('score'));
  const rates = report.satisfaction.filter((figure) => !figure.key.startsWith('score'));
  const blocks: KnownBlock[] = [
    fittedSection(title),
    context(note),
    ...fieldsSections(t(locale, 'cs_stats_messages'), locale, report.messages),
    { type: 'divider' },
    ...fieldsSections(t(locale, 'cs_stats_satisfaction'), locale, rates),
    ...fieldsSections(t(locale, 'cs_stats_scores'), locale, scores),
  ];
  return { text: title.replace(/\*/g, ''), blocks };
}

type StatisticsProblem =
  | { kind: 'not_a_date' | 'too_many_dates' | 'ends_before_start' | 'too_long' }
  | { kind: 'in_the_future'; date: string }
  /** `retry`: the period Try again asks for again; none in the digest, which no one asked for. */
  | { kind: 'failure'; reason: DeskFailureKind; retry?: Period | undefined };

export function renderStatisticsProblem(
  locale: Locale,
  command: string,
  problem: StatisticsProblem,
): RenderedMessage {
  switch (problem.kind) {
    case 'not_a_date':
      return message(t(locale, 'cs_stats_usage', { command }));
    case 'too_many_dates':
      return message(t(locale, 'cs_stats_too_many_dates', { command }));
    case 'ends_before_start':
      return message(t(locale, 'cs_stats_ends_before_start', { command }));
    case 'too_long':
      return message(
        `${t(locale, 'cs_stats_too_long', { days: STATISTICS_DAYS_MAX })} ${t(locale, 'cs_stats_usage', { command })}`,
      );
    case 'in_the_future':
      return message(t(locale, 'cs_stats_in_the_future', { date: problem.date }));
    case 'failure': {
      const text = t(locale, 'cs_stats_failure', { reason: problem.reason });
      const { retry } = problem;
      return message(text, [
        fittedSection(text),
        ...(retry ? [tryAgain(locale, ACTION_STATS_RETRY, periodValue(retry))] : []),
      ]);
    }
  }
}

/** The Home's statistics view: opened at once with a loading line (the trigger lasts 3 s), then filled. */
export function renderStatisticsModal(locale: Locale, shown: RenderedMessage | 'loading'): types.ModalView {
  return modal({
    title: t(locale, 'stats_modal_title'),
    close: t(locale, 'stats_modal_close'),
    blocks: shown === 'loading' ? [context(t(locale, 'stats_modal_loading'))] : shown.blocks,
  });
}
