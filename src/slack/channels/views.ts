import type { types } from '@slack/bolt';
import {
  CHANNEL_SETTING_KEYS,
  type ChannelSettingKey,
  type ChannelSettings,
  MAX_ROBOT_FLAG,
} from '../../conversation/channel-settings.js';
import type { Locale } from '../../conversation/locale.js';
import { button, context, type RenderedMessage, section } from '../kit/elements.js';
import { SECTION_TEXT_MAX, SERIALIZED_BLOCKS_BUDGET, truncateMrkdwn } from '../kit/limits.js';
import { code, peopleMentions } from '../kit/text.js';
import { sharedTime } from '../kit/times.js';
import { ALONE, type ChannelCommandProblem, channelOf, isSettingKey } from './command-parser.js';
import { ACTION_CHANNEL_EDIT } from './ids.js';
import { t } from './messages.js';
import type { StoredChannelSettings } from './stores.js';

/** The robot's default is the environment's: no number. */
const DEFAULTS = { answer: 'mention', reply: 'thread', lang: 'auto' } as const;

export function channelMention(channelId: string): string {
  return `<#${channelId}>`;
}

/** Ids in settings passed the schema: mentions are safe. */
function valueText(locale: Locale, key: ChannelSettingKey, settings: ChannelSettings): string {
  const byDefault = (value: string) => t(locale, 'setting_default', { value });
  const chosen = (value: string | undefined, fallback: string, words: (value: string) => string) =>
    value === undefined ? byDefault(words(fallback)) : `${words(value)} ${code(`${key}:${value}`)}`;
  switch (key) {
    case 'robot':
      return settings.robot === undefined
        ? byDefault(t(locale, 'robot_default'))
        : t(locale, 'robot_value', { robot: String(settings.robot) });
    case 'answer':
      return chosen(settings.answer, DEFAULTS.answer, (mode) => t(locale, 'answer_value', { mode }));
    case 'reply':
      return chosen(settings.reply, DEFAULTS.reply, (style) => t(locale, 'reply_value', { style }));
    case 'escalate':
      if (settings.escalate === undefined) return byDefault(t(locale, 'escalate_off'));
      return settings.escalate === 'off'
        ? t(locale, 'escalate_off')
        : peopleMentions(settings.escalate, ', ', 'users');
    case 'askers':
      if (settings.askers === undefined) return byDefault(t(locale, 'askers_anyone'));
      return settings.askers === 'anyone'
        ? t(locale, 'askers_anyone')
        : peopleMentions(settings.askers, ', ', 'users');
    case 'lang':
      return chosen(settings.lang, DEFAULTS.lang, (lang) => t(locale, 'lang_value', { lang }));
  }
}

/** `setOnly`: the keys the channel sets. */
function settingLines(locale: Locale, settings: ChannelSettings, setOnly = false): string {
  return CHANNEL_SETTING_KEYS.filter((key) => !setOnly || settings[key] !== undefined)
    .map((key) => t(locale, 'setting_line', { key, value: valueText(locale, key, settings) }))
    .join('\n');
}

function changedBy(
  locale: Locale,
  stored: StoredChannelSettings,
  key: 'settings_changed_by' | 'list_changed_by',
) {
  return t(locale, key, { user: `<@${stored.changedBy}>`, date: sharedTime(stored.changedAt, locale) });
}

export type SettingsHeading = 'show' | 'saved' | 'reset';

const HEADINGS = {
  show: 'settings_title',
  saved: 'settings_saved',
  reset: 'settings_reset',
} as const;

export function renderChannelSettings(
  locale: Locale,
  input: {
    channelId: string;
    stored: StoredChannelSettings | undefined;
    heading: SettingsHeading;
    command: string;
  },
): RenderedMessage {
  const { channelId, stored } = input;
  const heading = t(locale, HEADINGS[input.heading], { channel: channelMention(channelId) });
  const settings = stored?.settings ?? {};
  const lines = settingLines(locale, settings);
  const none = Object.keys(settings).length === 0 ? `\n${t(locale, 'settings_none')}` : '';
  const body = truncateMrkdwn(`${heading}${none}\n${lines}`, SECTION_TEXT_MAX);
  const blocks: types.KnownBlock[] = [section(body)];
  if (stored) blocks.push(context(changedBy(locale, stored, 'settings_changed_by')));
  blocks.push(context(t(locale, 'settings_how', { command: input.command })), {
    type: 'actions',
    block_id: 'channel_settings_actions',
    elements: [
      button(t(locale, 'settings_edit'), ACTION_CHANNEL_EDIT, { value: channelId, style: 'primary' }),
    ],
  });
  return { text: body, blocks };
}

export function renderChannelProblems(
  locale: Locale,
  command: string,
  problems: readonly ChannelCommandProblem[],
): RenderedMessage {
  const lines = problems.map((problem) => `• ${problemText(locale, command, problem)}`);
  const text = truncateMrkdwn([t(locale, 'nothing_changed'), ...lines].join('\n'), SECTION_TEXT_MAX);
  return { text, blocks: [section(text)] };
}

function problemText(locale: Locale, command: string, problem: ChannelCommandProblem): string {
  const key = code(problem.key);
  const value = code(problem.value);
  const setting = isSettingKey(problem.key) ? problem.key : undefined;
  switch (problem.reason) {
    case 'unknown-key':
      return t(locale, 'problem_unknown_key', { key });
    case 'duplicate':
      return t(locale, 'problem_duplicate', { key });
    case 'reset-alone':
      return t(locale, 'problem_reset_alone', { command });
    case 'unresolved':
      return t(locale, 'problem_unresolved', {
        value,
        kind: problem.value.startsWith('#') ? 'channel' : 'name',
      });
    case 'no-colon': {
      const typed = problem.value.trim().split(/\s+/).filter(Boolean).join(',');
      return t(locale, 'problem_no_colon', { key, example: code(`${problem.key}:${typed || '…'}`) });
    }
    case 'not-understood':
      return channelOf(problem.value) !== undefined
        ? t(locale, 'problem_channel_misplaced', { word: value, command })
        : t(locale, 'problem_not_understood', { word: value });
    case 'empty':
      if (setting === 'escalate') return t(locale, 'problem_empty_escalate');
      if (setting === 'askers') return t(locale, 'problem_empty_askers');
      return t(locale, 'problem_empty', { key, takes: setting ? takes(locale, setting) : '' });
    case 'bad-value': {
      if (!setting) return t(locale, 'problem_unknown_key', { key });
      const alone = ALONE[setting];
      const words = problem.value.toLowerCase().split(/[\s,]+/);
      return alone !== undefined && words.length > 1 && words.includes(alone)
        ? t(locale, 'problem_stands_alone', { key, takes: takes(locale, setting), value, word: code(alone) })
        : t(locale, 'problem_bad_value', { key, takes: takes(locale, setting), value });
    }
  }
}

const TAKES = {
  answer: 'takes_answer',
  reply: 'takes_reply',
  escalate: 'takes_escalate',
  askers: 'takes_askers',
  lang: 'takes_lang',
} as const;

function takes(locale: Locale, key: ChannelSettingKey): string {
  return key === 'robot' ? t(locale, 'takes_robot', { max: String(MAX_ROBOT_FLAG) }) : t(locale, TAKES[key]);
}

export interface ChannelNotice {
  by: string;
  /** When it changed. */
  answer: NonNullable<ChannelSettings['answer']> | undefined;
  /** When it changed. */
  reply: NonNullable<ChannelSettings['reply']> | undefined;
}

/** Undefined when nothing people see changed. */
export function renderChannelNotice(locale: Locale, notice: ChannelNotice): RenderedMessage | undefined {
  const by = `<@${notice.by}>`;
  const lines: string[] = [];
  if (notice.answer !== undefined) lines.push(t(locale, 'notice_answer', { by, mode: notice.answer }));
  if (notice.reply !== undefined) lines.push(t(locale, 'notice_reply', { by, style: notice.reply }));
  if (lines.length === 0) return undefined;
  const text = lines.join('\n');
  return { text, blocks: [section(text)] };
}

/** The channel just set up is the one the operator looks for. */
function newestFirst(list: ReadonlyMap<string, StoredChannelSettings>): [string, StoredChannelSettings][] {
  return [...list].sort(([, a], [, b]) => b.changedAt - a.changedAt);
}

export function renderChannelList(
  locale: Locale,
  command: string,
  list: ReadonlyMap<string, StoredChannelSettings>,
): RenderedMessage {
  if (list.size === 0) {
    const text = t(locale, 'list_none', { command });
    return { text, blocks: [section(text)] };
  }
  const title = t(locale, 'list_title', { count: list.size });
  const blocks: types.KnownBlock[] = [section(title)];
  const shown: string[] = [];
  // Slack refuses messages of many blocks or long JSON.
  let budget = SERIALIZED_BLOCKS_BUDGET - JSON.stringify(blocks).length - 200;
  for (const [channelId, stored] of newestFirst(list)) {
    const text = truncateMrkdwn(
      // What each sets, not the defaults it shares with every other.
      `*${channelMention(channelId)}* · ${changedBy(locale, stored, 'list_changed_by')}\n${settingLines(locale, stored.settings, true)}`,
      SECTION_TEXT_MAX,
    );
    const block = section(text);
    const cost = JSON.stringify(block).length;
    if (cost > budget || blocks.length >= MESSAGE_SECTIONS_MAX) break;
    budget -= cost;
    blocks.push(block);
    shown.push(channelMention(channelId));
  }
  const more = list.size - shown.length;
  if (more > 0) blocks.push(context(t(locale, 'list_more', { count: more })));
  return { text: `${title}\n${shown.join(', ')}`, blocks };
}

/** 50 blocks, less the title and the "more" line. */
const MESSAGE_SECTIONS_MAX = 48;
const HOME_CHANNELS_LISTED = 10;

export function renderHomeChannels(
  locale: Locale,
  list: ReadonlyMap<string, StoredChannelSettings>,
  command: string,
): types.KnownBlock[] {
  if (list.size === 0)
    return [section(`${t(locale, 'home_channels_title')}\n${t(locale, 'home_channels_none', { command })}`)];
  const sorted = newestFirst(list);
  const lines = sorted
    .slice(0, HOME_CHANNELS_LISTED)
    .map(([channelId, stored]) => `• ${channelMention(channelId)}  ${shortSettings(stored.settings)}`);
  const more = sorted.length - HOME_CHANNELS_LISTED;
  if (more > 0) lines.push(t(locale, 'list_more', { count: more }));
  return [section(truncateMrkdwn([t(locale, 'home_channels_title'), ...lines].join('\n'), SECTION_TEXT_MAX))];
}

function shortSettings(settings: ChannelSettings): string {
  return CHANNEL_SETTING_KEYS.flatMap((key) => {
    const value = settings[key];
    if (value === undefined) return [];
    if (typeof value === 'object') return [`${code(`${key}:`)} ${peopleMentions(value, ', ', 'users')}`];
    return [code(`${key}:${String(value)}`)];
  }).join(' ');
}
