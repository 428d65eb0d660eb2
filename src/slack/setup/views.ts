// The workspace set-up as Block Kit, pure: its lines in the operators' Home, its modal, and the
// modal's form read back into an account, with one problem per field.
import type { types } from '@slack/bolt';
import { z } from 'zod';
import { escapeMrkdwn } from '../../answer-html/mrkdwn.js';
import type { Locale } from '../../conversation/locale.js';
import { httpUrlSchema } from '../../util/http-url.js';
import { mention } from '../answers/blocks.js';
import {
  CHANNEL_ID,
  platformAccountSchema,
  USERGROUP_ID,
  type WorkspaceSetup,
} from '../install/workspace-setups.js';
import { button, context, section } from '../kit/elements.js';
import {
  channelInput,
  selectedConversation,
  selectedOption,
  selectInput,
  stateValues,
  textInput,
  textValue,
} from '../kit/inputs.js';
import { modal } from '../kit/modal.js';
import { sharedTime } from '../kit/times.js';
import { type UsergroupChoice, usergroupOptions } from '../kit/usergroups.js';
import { ACTION_SETUP_OPEN, VIEW_WORKSPACE_SETUP } from './ids.js';
import { type MessageKey, t } from './messages.js';

/** What the Home says of this workspace's set-up. */
export type SetupStatus =
  | { kind: 'own'; setup: WorkspaceSetup }
  /** None of its own: the environment's account answers. */
  | { kind: 'default' }
  | { kind: 'none' }
  | { kind: 'unavailable' };

export function renderHomeSetup(locale: Locale, timeZone: string, status: SetupStatus): types.KnownBlock[] {
  const line = statusLine(locale, timeZone, status);
  const blocks: types.KnownBlock[] = [section(`${t(locale, 'setup_heading')}\n${line}`)];
  if (status.kind !== 'unavailable') {
    const label = status.kind === 'own' ? 'setup_change_button' : 'setup_button';
    blocks.push({
      type: 'actions',
      block_id: 'home_workspace_setup',
      elements: [
        button(t(locale, label), ACTION_SETUP_OPEN, status.kind === 'none' ? { style: 'primary' } : {}),
      ],
    });
  }
  return blocks;
}

function statusLine(locale: Locale, timeZone: string, status: SetupStatus): string {
  switch (status.kind) {
    case 'own': {
      const { account, robotFlag, setBy, setAt, operatorGroupId, reviewChannelId, digestChannelId } =
        status.setup;
      const lines = [
        t(locale, 'setup_own', {
          sysNum: escapeMrkdwn(account.sysNum),
          url: escapeMrkdwn(account.openUrl),
          robot: robotFlag === undefined ? 'none' : String(robotFlag),
          who: mention(setBy),
          date: sharedTime(setAt, locale, timeZone),
        }),
      ];
      if (operatorGroupId !== undefined) {
        lines.push(t(locale, 'setup_operators_line', { group: `<!subteam^${operatorGroupId}>` }));
      }
      if (reviewChannelId !== undefined) {
        lines.push(t(locale, 'setup_review_line', { channel: `<#${reviewChannelId}>` }));
      }
      if (digestChannelId !== undefined) {
        lines.push(t(locale, 'setup_digest_line', { channel: `<#${digestChannelId}>` }));
      }
      return lines.join('\n');
    }
    case 'default':
      return t(locale, 'setup_default');
    case 'none':
      return t(locale, 'setup_none');
    case 'unavailable':
      return t(locale, 'setup_unavailable');
  }
}

export const SETUP_FIELDS = {
  url: 'setup_url',
  sysNum: 'setup_sys_num',
  appId: 'setup_app_id',
  appKey: 'setup_app_key',
  accessToken: 'setup_access_token',
  robot: 'setup_robot',
  operators: 'setup_operators',
  review: 'setup_review_channel',
  digest: 'setup_digest_channel',
} as const;

type SetupField = (typeof SETUP_FIELDS)[keyof typeof SETUP_FIELDS];

/** What the modal offers beside the account. */
export interface SetupChoices {
  /** The workspace's groups, undefined when Slack did not list them. */
  usergroups: readonly UsergroupChoice[] | undefined;
  /** DIGEST_SCHEDULE is set: a digest channel can be named. */
  digestScheduled: boolean;
  /** REVIEW_CHANNEL_ID is set: a workspace naming no review channel of its own posts there. */
  reviewDefault: boolean;
}

/** Filled from the saved set-up, its key and token left out: a secret is never sent back to Slack. */
export function renderSetupModal(
  locale: Locale,
  current: WorkspaceSetup | undefined,
  { usergroups, digestScheduled, reviewDefault }: SetupChoices,
): types.ModalView {
  const account = current?.account;
  const appId = account?.credential.kind === 'fetched' ? account.credential.appId : undefined;
  const field = (
    block: SetupField,
    initial: string | undefined,
    max: number,
    hint?: MessageKey,
    required = false,
  ) =>
    textInput(block, t(locale, block), {
      initial,
      max,
      multiline: false,
      required,
      ...(hint ? { hint: t(locale, hint) } : {}),
    });
  return modal({
    callbackId: VIEW_WORKSPACE_SETUP,
    title: t(locale, 'setup_title'),
    submit: t(locale, 'setup_save'),
    close: t(locale, 'setup_cancel'),
    privateMetadata: '{}',
    blocks: [
      context(t(locale, 'setup_intro')),
      field(SETUP_FIELDS.url, account?.openUrl, 500, 'setup_url_hint', true),
      field(SETUP_FIELDS.sysNum, account?.sysNum, 64, undefined, true),
      field(SETUP_FIELDS.appId, appId, 200),
      field(SETUP_FIELDS.appKey, undefined, 200, appId === undefined ? undefined : 'setup_app_key_hint'),
      field(SETUP_FIELDS.accessToken, undefined, 40, 'setup_access_token_hint'),
      field(SETUP_FIELDS.robot, current?.robotFlag?.toString(), 6, 'setup_robot_hint'),
      operatorsInput(locale, current?.operatorGroupId, usergroups),
      channelInput(SETUP_FIELDS.review, t(locale, SETUP_FIELDS.review), {
        initial: current?.reviewChannelId,
        placeholder: t(locale, 'setup_review_placeholder'),
        hint: t(locale, 'setup_review_hint', { fallback: reviewDefault ? 'environment' : 'none' }),
      }),
      digestScheduled
        ? channelInput(SETUP_FIELDS.digest, t(locale, SETUP_FIELDS.digest), {
            initial: current?.digestChannelId,
            placeholder: t(locale, 'setup_digest_placeholder'),
            hint: t(locale, 'setup_digest_hint'),
          })
        : undefined,
    ].filter((block) => block !== undefined),
  });
}

/** Picked by handle when Slack listed the groups and a select holds them; else typed as an id; none without groups. */
function operatorsInput(
  locale: Locale,
  current: string | undefined,
  usergroups: readonly UsergroupChoice[] | undefined,
): types.KnownBlock | undefined {
  const block = SETUP_FIELDS.operators;
  const options = usergroupOptions(usergroups, current === undefined ? [] : [current]);
  if (options === undefined) {
    return textInput(block, t(locale, block), {
      initial: current,
      max: 32,
      multiline: false,
      hint: t(locale, 'setup_operators_hint'),
    });
  }
  if (options.length === 0) return undefined;
  return selectInput(block, t(locale, block), options, {
    initial: options.find((candidate) => candidate.value === current),
    placeholder: t(locale, 'setup_operators_placeholder'),
  });
}

/** A set-up as its form gives it: who set it and when are the submission's. */
type SetupFields = Omit<WorkspaceSetup, 'setBy' | 'setAt'>;

export type SetupForm =
  | { kind: 'valid'; setup: SetupFields }
  | { kind: 'invalid'; problems: Partial<Record<SetupField, MessageKey>> };

const ROBOT_FLAG = z.coerce.number().int().min(0).max(999_999);

/** `current`: what is saved, whose key an empty key field keeps for the same address and app id. */
export function readSetupForm(view: unknown, current: WorkspaceSetup | undefined): SetupForm {
  const values = stateValues(view);
  const read = (block: SetupField) => textValue(values, block, block)?.trim() || undefined;
  const problems: Partial<Record<SetupField, MessageKey>> = {};
  const url = httpUrlSchema.safeParse(read(SETUP_FIELDS.url));
  const sysNum = read(SETUP_FIELDS.sysNum);
  const appId = read(SETUP_FIELDS.appId);
  const accessToken = read(SETUP_FIELDS.accessToken);
  const robot = read(SETUP_FIELDS.robot);
  const operatorGroupId = (
    selectedOption(values, SETUP_FIELDS.operators, SETUP_FIELDS.operators) ?? read(SETUP_FIELDS.operators)
  )?.toUpperCase();
  if (operatorGroupId !== undefined && !USERGROUP_ID.test(operatorGroupId)) {
    problems[SETUP_FIELDS.operators] = 'setup_problem_operators';
  }
  const [reviewChannelId, digestChannelId] = [SETUP_FIELDS.review, SETUP_FIELDS.digest].map((block) => {
    const channelId = selectedConversation(values, block);
    if (channelId !== undefined && !CHANNEL_ID.test(channelId)) problems[block] = 'setup_problem_channel';
    return channelId;
  });
  if (!url.success) problems[SETUP_FIELDS.url] = 'setup_problem_url';
  const openUrl = url.success ? url.data : undefined;
  if (!sysNum) problems[SETUP_FIELDS.sysNum] = 'setup_problem_required';
  const saved = current?.account;
  const keptKey =
    saved?.credential.kind === 'fetched' && saved.credential.appId === appId && saved.openUrl === openUrl
      ? saved.credential.appKey
      : undefined;
  const appKey = read(SETUP_FIELDS.appKey) ?? keptKey;
  const credential = accessToken
    ? ({ kind: 'static', accessToken } as const)
    : appId && appKey
      ? ({ kind: 'fetched', appId, appKey } as const)
      : undefined;
  if (!credential) problems[appId ? SETUP_FIELDS.appKey : SETUP_FIELDS.appId] = 'setup_problem_credential';
  const robotFlag = robot === undefined ? undefined : ROBOT_FLAG.safeParse(robot);
  if (robotFlag && !robotFlag.success) problems[SETUP_FIELDS.robot] = 'setup_problem_robot';
  const account = platformAccountSchema.safeParse({ openUrl, sysNum, credential });
  if (Object.keys(problems).length > 0 || !account.success) {
    if (!account.success && Object.keys(problems).length === 0) {
      // Every field read, yet one is longer than an account holds.
      for (const issue of account.error.issues) problems[blockOf(issue.path)] = 'setup_problem_too_long';
    }
    return { kind: 'invalid', problems };
  }
  // Only what was given: the stored set-up has no key for a field left empty.
  const setup: SetupFields = { account: account.data };
  if (robotFlag?.success) setup.robotFlag = robotFlag.data;
  if (operatorGroupId !== undefined) setup.operatorGroupId = operatorGroupId;
  if (reviewChannelId !== undefined) setup.reviewChannelId = reviewChannelId;
  if (digestChannelId !== undefined) setup.digestChannelId = digestChannelId;
  return { kind: 'valid', setup };
}

function blockOf(path: readonly PropertyKey[]): SetupField {
  const [first, second] = path;
  if (first === 'openUrl') return SETUP_FIELDS.url;
  if (first === 'sysNum') return SETUP_FIELDS.sysNum;
  if (second === 'appId') return SETUP_FIELDS.appId;
  if (second === 'accessToken') return SETUP_FIELDS.accessToken;
  return SETUP_FIELDS.appKey;
}
