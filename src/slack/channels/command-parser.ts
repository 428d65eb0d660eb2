// The words after `/cs channel`, pure: what the operator is told is the message catalog's to say.
import {
  CHANNEL_SETTING_KEYS,
  type ChannelSettingKey,
  type ChannelSettings,
  channelSettingsSchema,
  type People,
} from '../../conversation/channel-settings.js';

type ChannelCommandProblemReason =
  | 'unknown-key'
  | 'bad-value'
  /** Which one was meant is a guess. */
  | 'duplicate'
  | 'empty'
  /** A channel anywhere but first is one. */
  | 'not-understood'
  /** `robot 2`: the value is what followed it. */
  | 'no-colon'
  | 'reset-alone'
  /** Slack escapes names it knows (`<#C…|name>`): this one is mistyped or not picked from the list. */
  | 'unresolved';

export interface ChannelCommandProblem {
  /** Lower-cased; for a word not understood, the word. */
  key: string;
  reason: ChannelCommandProblemReason;
  /** '' when nothing was typed: the message quotes it. */
  value: string;
}

export type ChannelCommand =
  | { kind: 'show'; channel?: string }
  | { kind: 'reset'; channel?: string }
  | { kind: 'set'; channel?: string; change: ChannelSettings }
  | { kind: 'invalid'; problems: ChannelCommandProblem[] };

// Except inside <…>: a label may hold a space.
const WORD = /(?:<[^<>]*>|\S)+/g;
const ITEM = /(?:<[^<>]*>|[^,\s])+/g;
const PAIR = /^([a-z][a-z0-9_-]*):(.*)$/is;
const CHANNEL_MENTION = /^<#([CG][A-Z0-9]+)(?:\|[^<>]*)?>$/;
/** Public (C…) and private (G…): settings are for channels, not DMs. */
export const CHANNEL_ID = /^[CG][A-Z0-9]+$/;
const USER = /^(?:<@([UW][A-Z0-9]+)(?:\|[^<>]*)?>|([UW][A-Z0-9]+))$/;
const GROUP = /^(?:<!subteam\^(S[A-Z0-9]+)(?:\|[^<>]*)?>|(S[A-Z0-9]+))$/;
/** Slack left it as typed, so it is not one Slack knows. */
const PLAIN_NAME = /^[#@]./;

/** The word that names nobody in a list of people: it stands alone. */
export const ALONE: Partial<Record<ChannelSettingKey, 'off' | 'anyone'>> = {
  escalate: 'off',
  askers: 'anyone',
};

/** What followed its colon, then the words after it up to the next key. */
interface Typed {
  key: ChannelSettingKey;
  words: string[];
}

type Slot = { kind: 'typed'; typed: Typed } | { kind: 'problem'; problem: ChannelCommandProblem };

export function parseChannelCommand(text: string): ChannelCommand {
  const words = text.match(WORD) ?? [];
  const channel = words[0] === undefined ? undefined : channelOf(words[0]);
  const rest = channel === undefined ? words : words.slice(1);
  const where = channel === undefined ? {} : { channel };

  const [first, ...more] = rest;
  if (first === undefined) return { kind: 'show', ...where };
  if (first.toLowerCase() === 'reset') {
    if (more.length === 0) return { kind: 'reset', ...where };
    return { kind: 'invalid', problems: [problem('reset', 'reset-alone', more.join(' '))] };
  }

  const slots: Slot[] = [];
  const seen = new Set<ChannelSettingKey>();
  const twice = new Set<ChannelSettingKey>();
  // A list may go on as separate words: they go to the last key.
  let current: string[] | undefined;
  for (const word of rest) {
    const pair = PAIR.exec(word);
    if (!pair) {
      const bare = word.toLowerCase();
      if (isSettingKey(bare)) {
        current = [];
        slots.push({ kind: 'problem', problem: noColon(bare, current) });
      } else if (current && channelOf(word) === undefined) current.push(word);
      else slots.push({ kind: 'problem', problem: notUnderstood(word) });
      continue;
    }
    const key = (pair[1] ?? '').toLowerCase();
    const value = pair[2] ?? '';
    current = [value];
    if (!isSettingKey(key)) {
      slots.push({ kind: 'problem', problem: problem(key, 'unknown-key', value) });
    } else if (!seen.has(key)) {
      seen.add(key);
      slots.push({ kind: 'typed', typed: { key, words: current } });
    } else if (!twice.has(key)) {
      twice.add(key);
      slots.push({ kind: 'problem', problem: problem(key, 'duplicate', value) });
    }
  }

  const change: ChannelSettings = {};
  const problems: ChannelCommandProblem[] = [];
  for (const slot of slots) {
    const found = slot.kind === 'problem' ? slot.problem : readInto(change, slot.typed);
    if (found) problems.push(found);
  }
  return problems.length > 0 ? { kind: 'invalid', problems } : { kind: 'set', ...where, change };
}

function readInto(change: ChannelSettings, { key, words }: Typed): ChannelCommandProblem | undefined {
  const items = words.flatMap((word) => word.match(ITEM) ?? []);
  if (items.length === 0) return problem(key, 'empty', '');
  const alone = ALONE[key];
  let value: unknown;
  if (alone !== undefined) {
    const read = peopleOr(alone, items);
    if (read.kind === 'unresolved') return problem(read.value, 'unresolved', read.value);
    if (read.kind === 'bad') return problem(key, 'bad-value', read.value);
    value = read.value;
  } else {
    const [item] = items;
    if (item === undefined || items.length > 1) return problem(key, 'bad-value', items.join(' '));
    // At most 10 digits, so Number reads a robot exactly before the schema's range check.
    const robot = /^\d{1,10}$/.test(item) ? Number(item) : Number.NaN;
    value = key === 'robot' ? robot : item.toLowerCase();
  }
  const read = channelSettingsSchema.safeParse({ [key]: value });
  if (!read.success) return problem(key, 'bad-value', items.join(' '));
  Object.assign(change, read.data);
  return undefined;
}

type PeopleRead =
  | { kind: 'ok'; value: string | People }
  | { kind: 'bad'; value: string }
  | { kind: 'unresolved'; value: string };

/** Labels dropped, each id once. */
function peopleOr(word: string, items: readonly string[]): PeopleRead {
  if (items.some((item) => item.toLowerCase() === word)) {
    return items.length === 1 ? { kind: 'ok', value: word } : { kind: 'bad', value: items.join(' ') };
  }
  const users: string[] = [];
  const groups: string[] = [];
  for (const item of items) {
    const user = USER.exec(item);
    const group = user ? undefined : GROUP.exec(item);
    const id = user ? (user[1] ?? user[2]) : group ? (group[1] ?? group[2]) : undefined;
    if (id === undefined)
      return PLAIN_NAME.test(item) ? { kind: 'unresolved', value: item } : { kind: 'bad', value: item };
    const list = user ? users : groups;
    if (!list.includes(id)) list.push(id);
  }
  return { kind: 'ok', value: { users, groups } };
}

export function channelOf(word: string): string | undefined {
  const mention = CHANNEL_MENTION.exec(word);
  if (mention) return mention[1];
  return CHANNEL_ID.test(word) ? word : undefined;
}

function notUnderstood(word: string): ChannelCommandProblem {
  return problem(word, PLAIN_NAME.test(word) ? 'unresolved' : 'not-understood', word);
}

/** `following` fills as the words after the bare key are read. */
function noColon(key: ChannelSettingKey, following: string[]): ChannelCommandProblem {
  return {
    key,
    reason: 'no-colon',
    get value() {
      return following.join(' ');
    },
  };
}

function problem(key: string, reason: ChannelCommandProblemReason, value: string): ChannelCommandProblem {
  return { key, reason, value };
}

export function isSettingKey(key: string): key is ChannelSettingKey {
  return (CHANNEL_SETTING_KEYS as readonly string[]).includes(key);
}
