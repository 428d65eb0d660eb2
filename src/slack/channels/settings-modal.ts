// The channel settings modal, built and read back here so block ids and metadata live in one file.
// Slack has no user-group select: groups are offered by handle from usergroups.list.
import type { types } from '@slack/bolt';
import { z } from 'zod';
import {
  ANSWER_MODES,
  CHANNEL_LANGUAGES,
  type ChannelSettings,
  MAX_ROBOT_FLAG,
  type People,
  REPLY_STYLES,
} from '../../conversation/channel-settings.js';
import type { Locale } from '../../conversation/locale.js';
import { BLOCK_KIT } from '../kit/block-kit-limits.js';
import { context, plainText } from '../kit/elements.js';
import {
  input,
  option,
  selectedOption,
  selectInput,
  stateValues,
  textInput,
  textValue,
} from '../kit/inputs.js';
import { truncate } from '../kit/limits.js';
import { modal, readPrivateMetadata } from '../kit/modal.js';
import { type UsergroupChoice, usergroupOptions } from '../kit/usergroups.js';
import type { ViewSubmission } from '../transport/incoming.js';
import { CHANNEL_ID, parseChannelCommand } from './command-parser.js';
import { VIEW_CHANNEL_SETTINGS } from './ids.js';
import { t } from './messages.js';
import { channelMention } from './views.js';

/** Each input's action id is its block's. */
export const CHANNEL_FIELDS = {
  robot: 'channel_robot',
  answer: 'channel_answer',
  reply: 'channel_reply',
  escalatePeople: 'channel_escalate_people',
  escalateGroups: 'channel_escalate_groups',
  askersPeople: 'channel_askers_people',
  askersGroups: 'channel_askers_groups',
  lang: 'channel_lang',
} as const;

/** Leaves the key unset: the default applies. */
const DEFAULT_OPTION = 'default';
const GROUPS_MAX = 1000;
const GROUP_ERROR_VALUE_MAX = 100;

/** Where the settings were shown, to show them again, saved. */
export interface ChannelModalMetadata {
  channelId: string;
  responseUrl: string | undefined;
}

const metadataSchema = z.object({
  v: z.literal(1),
  c: z.string().regex(CHANNEL_ID),
  r: z.string().max(2000).optional(),
});

/** `usergroups` undefined when they could not be listed. */
export function renderChannelSettingsModal(
  locale: Locale,
  metadata: ChannelModalMetadata,
  settings: ChannelSettings,
  usergroups: readonly UsergroupChoice[] | undefined,
): types.ModalView {
  const people = (value: ChannelSettings['escalate' | 'askers']) =>
    typeof value === 'object' ? value : { users: [], groups: [] };
  const escalate = people(settings.escalate);
  const askers = people(settings.askers);
  return modal({
    callbackId: VIEW_CHANNEL_SETTINGS,
    title: t(locale, 'modal_title'),
    submit: t(locale, 'modal_save_settings'),
    close: t(locale, 'modal_cancel_settings'),
    privateMetadata: JSON.stringify({
      v: 1,
      c: metadata.channelId,
      ...(metadata.responseUrl ? { r: metadata.responseUrl } : {}),
    }),
    blocks: [
      context(t(locale, 'modal_intro', { channel: channelMention(metadata.channelId) })),
      robotInput(locale, settings.robot),
      choice(
        locale,
        CHANNEL_FIELDS.answer,
        t(locale, 'modal_answer'),
        ANSWER_MODES,
        settings.answer,
        (mode) => t(locale, 'answer_value', { mode }),
      ),
      choice(locale, CHANNEL_FIELDS.reply, t(locale, 'modal_reply'), REPLY_STYLES, settings.reply, (style) =>
        t(locale, 'reply_value', { style }),
      ),
      usersInput(CHANNEL_FIELDS.escalatePeople, t(locale, 'modal_escalate_people'), escalate.users),
      groupsInput(locale, CHANNEL_FIELDS.escalateGroups, t(locale, 'modal_escalate_groups'), {
        current: escalate.groups,
        usergroups,
      }),
      usersInput(CHANNEL_FIELDS.askersPeople, t(locale, 'modal_askers_people'), askers.users),
      groupsInput(locale, CHANNEL_FIELDS.askersGroups, t(locale, 'modal_askers_groups'), {
        current: askers.groups,
        usergroups,
      }),
      choice(locale, CHANNEL_FIELDS.lang, t(locale, 'modal_lang'), CHANNEL_LANGUAGES, settings.lang, (lang) =>
        t(locale, 'lang_value', { lang }),
      ),
    ].filter((block) => block !== undefined),
  });
}

function robotInput(locale: Locale, robot: number | undefined): types.InputBlock {
  const element = {
    type: 'number_input',
    action_id: CHANNEL_FIELDS.robot,
    is_decimal_allowed: false,
    min_value: '0',
    max_value: String(MAX_ROBOT_FLAG),
    ...(robot === undefined ? {} : { initial_value: String(robot) }),
  } as const;
  return input(CHANNEL_FIELDS.robot, t(locale, 'modal_robot'), element, {
    hint: t(locale, 'modal_robot_hint'),
  });
}

function choice<V extends string>(
  locale: Locale,
  blockId: string,
  label: string,
  values: readonly V[],
  current: V | undefined,
  words: (value: V) => string,
): types.InputBlock {
  const [byDefault] = values;
  const defaultOption = option(
    t(locale, 'modal_default', { value: byDefault === undefined ? '' : words(byDefault) }),
    DEFAULT_OPTION,
  );
  const options = [defaultOption, ...values.map((value) => option(words(value), value))];
  const initial = options.find((candidate) => candidate.value === (current ?? DEFAULT_OPTION));
  return selectInput(blockId, label, options, { initial, placeholder: undefined });
}

function usersInput(blockId: string, label: string, users: readonly string[]): types.InputBlock {
  const initial = users.length > 0 ? { initial_users: [...users] } : {};
  return input(blockId, label, { type: 'multi_users_select', action_id: blockId, ...initial });
}

/** Ids typed only when the list could not be read or is longer than a select holds; none without groups. */
function groupsInput(
  locale: Locale,
  blockId: string,
  label: string,
  { current, usergroups }: { current: readonly string[]; usergroups: readonly UsergroupChoice[] | undefined },
): types.InputBlock | undefined {
  const options = usergroupOptions(usergroups, current);
  if (options === undefined) {
    return textInput(blockId, label, {
      initial: current.join(' '),
      max: GROUPS_MAX,
      multiline: false,
      hint: t(locale, 'modal_groups_hint'),
    });
  }
  if (options.length === 0) return undefined;
  const initial = options.filter((candidate) => current.includes(candidate.value ?? ''));
  return input(blockId, label, {
    type: 'multi_static_select',
    action_id: blockId,
    placeholder: plainText(t(locale, 'modal_groups_placeholder'), BLOCK_KIT.placeholder),
    options,
    ...(initial.length > 0 ? { initial_options: initial } : {}),
  });
}

export type ChannelFormProblem =
  | { block: typeof CHANNEL_FIELDS.robot; kind: 'robot' }
  | { block: string; kind: 'groups'; value: string };

export type ChannelForm =
  | { kind: 'settings'; settings: ChannelSettings }
  | { kind: 'invalid'; problems: ChannelFormProblem[] };

const groupsElementSchema = z.object({
  selected_options: z
    .array(z.object({ value: z.string().regex(/^S[A-Z0-9]+$/) }))
    .max(BLOCK_KIT.staticSelect.options)
    .nullish(),
});

const usersElementSchema = z.object({
  selected_users: z
    .array(z.string().regex(/^[UW][A-Z0-9]+$/))
    .max(1000)
    .nullish(),
});

export function readChannelModalMetadata(view: ViewSubmission['view']): ChannelModalMetadata | undefined {
  const metadata = readPrivateMetadata(view.private_metadata, metadataSchema);
  return metadata && { channelId: metadata.c, responseUrl: metadata.r };
}

/** A key left empty or at Default is left out. */
export function readChannelForm(view: ViewSubmission['view']): ChannelForm {
  const values = stateValues(view);
  const problems: ChannelFormProblem[] = [];
  const settings: ChannelSettings = {};

  const robot = (textValue(values, CHANNEL_FIELDS.robot, CHANNEL_FIELDS.robot) ?? '').trim();
  if (robot !== '') {
    const read = parseChannelCommand(`robot:${robot}`);
    if (read.kind === 'set' && read.change.robot !== undefined) settings.robot = read.change.robot;
    else problems.push({ block: CHANNEL_FIELDS.robot, kind: 'robot' });
  }
  const answer = chosen(values, CHANNEL_FIELDS.answer, ANSWER_MODES);
  if (answer) settings.answer = answer;
  const reply = chosen(values, CHANNEL_FIELDS.reply, REPLY_STYLES);
  if (reply) settings.reply = reply;
  const lang = chosen(values, CHANNEL_FIELDS.lang, CHANNEL_LANGUAGES);
  if (lang) settings.lang = lang;

  const people = (blocks: [people: string, groups: string]) => peopleOf(values, blocks, problems);
  const escalate = people([CHANNEL_FIELDS.escalatePeople, CHANNEL_FIELDS.escalateGroups]);
  if (escalate) settings.escalate = escalate;
  const askers = people([CHANNEL_FIELDS.askersPeople, CHANNEL_FIELDS.askersGroups]);
  if (askers) settings.askers = askers;
  return problems.length > 0 ? { kind: 'invalid', problems } : { kind: 'settings', settings };
}

function chosen<V extends string>(
  values: ReturnType<typeof stateValues>,
  blockId: string,
  allowed: readonly V[],
): V | undefined {
  const value = selectedOption(values, blockId, blockId);
  return allowed.find((candidate) => candidate === value);
}

function peopleOf(
  values: ReturnType<typeof stateValues>,
  [peopleBlock, groupsBlock]: [people: string, groups: string],
  problems: ChannelFormProblem[],
): People | undefined {
  const picked = usersElementSchema.safeParse(values[peopleBlock]?.[peopleBlock]);
  const users = new Set(picked.success ? (picked.data.selected_users ?? []) : []);
  const groups = new Set<string>();
  const pickedGroups = groupsElementSchema.safeParse(values[groupsBlock]?.[groupsBlock]);
  for (const picked of pickedGroups.success ? (pickedGroups.data.selected_options ?? []) : []) {
    groups.add(picked.value);
  }
  const typed = (textValue(values, groupsBlock, groupsBlock) ?? '').trim();
  if (typed !== '') {
    const read = parseChannelCommand(`escalate:${typed}`);
    const people =
      read.kind === 'set' && Object.keys(read.change).length === 1 ? read.change.escalate : undefined;
    if (typeof people === 'object') {
      for (const id of people.users) users.add(id);
      for (const id of people.groups) groups.add(id);
    } else if (people !== 'off') {
      problems.push({ block: groupsBlock, kind: 'groups', value: typed });
    }
  }
  if (users.size + groups.size === 0) return undefined;
  return { users: [...users], groups: [...groups] };
}

export function channelFormProblemText(locale: Locale, problem: ChannelFormProblem): string {
  return problem.kind === 'robot'
    ? t(locale, 'modal_robot_bad', { max: String(MAX_ROBOT_FLAG) })
    : t(locale, 'modal_groups_bad', { value: truncate(problem.value, GROUP_ERROR_VALUE_MAX) });
}
