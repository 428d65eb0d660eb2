// Payloads of the review loop's Slack surfaces, shaped as Slack sends them: a modal's submission (from
// the view the app opened, with what the person typed or chose) and a message shortcut.
import type { RecordedCall } from './fake-slack-api.js';
import { isRecord } from './gateway-harness.js';
import { type Block, IDS, nextTs } from './slack-payloads.js';

/** What a person entered in one input: typed text, a chosen option's value, a date or a time. */
export type InputValue =
  | { text: string }
  | { option: string }
  | { options: string[] }
  | { users: string[] }
  | { radio: string }
  | { date: string }
  | { time: string }
  | { conversation: string };

export interface OpenedView {
  /** The view as the app sent it to views.open or views.update. */
  view: Record<string, unknown>;
  /** The id Slack gave it (the fake answers V00000001, …). */
  id: string;
}

let viewCounter = 0;

/**
 * The view_submission Slack posts when `user` presses Submit on `opened`: every input block of the
 * view is in state.values (empty when not filled, as Slack sends it), with `values` by block id.
 */
export function viewSubmissionPayload(
  opened: OpenedView,
  values: Record<string, InputValue>,
  user: string = IDS.user,
): Record<string, unknown> {
  viewCounter += 1;
  const blocks = Array.isArray(opened.view.blocks) ? (opened.view.blocks as Block[]) : [];
  const state: Record<string, Record<string, unknown>> = {};
  for (const block of blocks) {
    if (block.type !== 'input' || typeof block.block_id !== 'string') continue;
    const element = block.element as { type?: string; action_id?: string } | undefined;
    if (!element?.type || !element.action_id) continue;
    state[block.block_id] = { [element.action_id]: elementState(element.type, values[block.block_id]) };
  }
  return {
    type: 'view_submission',
    team: { id: IDS.team, domain: IDS.teamDomain },
    user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: IDS.team },
    api_app_id: IDS.app,
    token: IDS.verificationToken,
    trigger_id: `${viewCounter}.1234567890.abcdef`,
    view: {
      ...opened.view,
      id: opened.id,
      team_id: IDS.team,
      type: 'modal',
      state: { values: state },
      hash: `${viewCounter}.hash`,
      app_id: IDS.app,
      bot_id: IDS.bot,
    },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
}

function elementState(type: string, value: InputValue | undefined): Record<string, unknown> {
  const chosen = (option: string | undefined) =>
    option === undefined ? null : { text: { type: 'plain_text', text: option }, value: option };
  switch (type) {
    case 'plain_text_input':
    case 'number_input':
      return { type, value: value && 'text' in value ? value.text : null };
    case 'multi_users_select':
      return { type, selected_users: value && 'users' in value ? value.users : [] };
    case 'static_select':
      return { type, selected_option: chosen(value && 'option' in value ? value.option : undefined) };
    case 'multi_static_select':
      return { type, selected_options: (value && 'options' in value ? value.options : []).map(chosen) };
    case 'radio_buttons':
      return { type, selected_option: chosen(value && 'radio' in value ? value.radio : undefined) };
    case 'datepicker':
      return { type, selected_date: value && 'date' in value ? value.date : null };
    case 'timepicker':
      return { type, selected_time: value && 'time' in value ? value.time : null };
    case 'conversations_select':
      return { type, selected_conversation: value && 'conversation' in value ? value.conversation : null };
    default:
      return { type };
  }
}

export interface ShortcutMessage {
  ts?: string;
  thread_ts?: string;
  /** Whose message it is: the app's bot by default. */
  user?: string;
  bot_id?: string;
  blocks?: Block[];
  text?: string;
}

/** A message shortcut (`message_action`) on `message`, as Slack posts it. */
export function messageShortcutPayload(
  fields: { user?: string; channel?: string; callbackId?: string; message?: ShortcutMessage } = {},
): Record<string, unknown> {
  const message = fields.message ?? {};
  return {
    type: 'message_action',
    token: IDS.verificationToken,
    action_ts: nextTs(),
    team: { id: IDS.team, domain: IDS.teamDomain },
    user: { id: fields.user ?? IDS.user, name: 'jane.doe', username: 'jane.doe', team_id: IDS.team },
    channel: { id: fields.channel ?? IDS.channel, name: 'helpdesk' },
    is_enterprise_install: false,
    enterprise: null,
    callback_id: fields.callbackId ?? 'edit_answer',
    trigger_id: `${nextTs()}.1234567890.abcdef`,
    response_url: 'https://hooks.slack.com/app/T1/1/abc',
    message_ts: message.ts ?? nextTs(),
    message: {
      type: 'message',
      ts: message.ts ?? nextTs(),
      ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
      user: message.user ?? IDS.botUser,
      ...(message.user && message.user !== IDS.botUser ? {} : { bot_id: message.bot_id ?? IDS.bot }),
      text: message.text ?? '',
      blocks: message.blocks ?? [],
    },
  };
}

/** The view a views.open or views.update call carried. */
export function viewOf(call: RecordedCall): Record<string, unknown> {
  const view = call.body.view;
  if (!isRecord(view)) throw new Error(`${call.method} carried no view`);
  return view;
}

/** The id the fake gave a view it opened. */
export function openedViewId(call: RecordedCall): string {
  const view = call.response?.view;
  return isRecord(view) ? String(view.id ?? '') : '';
}

export function viewBlocks(view: Record<string, unknown>): Array<Record<string, unknown>> {
  return Array.isArray(view.blocks) ? view.blocks.filter(isRecord) : [];
}

/** The element of the view's block with this id (an input's), if there is one. */
export function elementOf(
  view: Record<string, unknown>,
  blockId: string,
): Record<string, unknown> | undefined {
  const block = viewBlocks(view).find((candidate) => candidate.block_id === blockId);
  return block && isRecord(block.element) ? block.element : undefined;
}
