// The Block Kit pieces every renderer builds, defined once so they look the same in every room.
import type { types } from '@slack/bolt';
import { BUTTON_TEXT_MAX, truncate } from './limits.js';

/** A message as every room renders it: blocks, and the plain fallback for notifications. */
export interface RenderedMessage {
  text: string;
  blocks: types.KnownBlock[];
}

export function mrkdwn(text: string): types.MrkdwnElement {
  return { type: 'mrkdwn', text };
}

/** The caller fits the text to SECTION_TEXT_MAX. */
export function section(text: string): types.SectionBlock {
  return { type: 'section', text: mrkdwn(text) };
}

export function context(text: string): types.ContextBlock {
  return { type: 'context', elements: [mrkdwn(text)] };
}

export function plainText(text: string, max: number = BUTTON_TEXT_MAX): types.PlainTextElement {
  return { type: 'plain_text', text: truncate(text, max), emoji: true };
}

/** Only the options given. */
export function button(
  text: string,
  actionId: string,
  options: { value?: string; style?: 'primary' | 'danger'; confirm?: types.ConfirmationDialog } = {},
): types.Button {
  return {
    type: 'button',
    action_id: actionId,
    text: plainText(text),
    ...(options.value !== undefined ? { value: options.value } : {}),
    ...(options.style ? { style: options.style } : {}),
    ...(options.confirm ? { confirm: options.confirm } : {}),
  };
}
