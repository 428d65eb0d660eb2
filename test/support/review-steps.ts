// Steps the review loop's e2e tests share: reading a card or a rated answer, asking in a DM, and
// submitting a modal as Slack would with what it was opened with.
import { expect } from 'vitest';
import type { FakeSlackApi, RecordedCall } from './fake-slack-api.js';
import { blocksOf, type GatewayHarness, isRecord } from './gateway-harness.js';
import { type InputValue, viewBlocks } from './review-payloads.js';
import { directMessage, IDS } from './slack-payloads.js';

const WAIT_MS = 8_000;

/** A predicate for the calls Slack receives from now on. */
export function since(slack: FakeSlackApi): (call: RecordedCall) => boolean {
  const mark = slack.calls().length;
  return (call) => slack.calls().indexOf(call) >= mark;
}

/** A card's header text ('' when it has none). */
export function headerOf(call: RecordedCall): string {
  const header = blocksOf(call).find((block) => block.type === 'header');
  return header && isRecord(header.text) ? String(header.text.text ?? '') : '';
}

export interface ReasonButton {
  actionId: string;
  blockId: string;
  value: string;
  text: string;
}

/** The rated line's "Say what was wrong" button, if the message has it. */
export function findReasonButton(call: RecordedCall): ReasonButton | undefined {
  for (const block of blocksOf(call)) {
    const accessory = block.accessory;
    if (isRecord(accessory) && accessory.action_id === 'dislike_reason') {
      return {
        actionId: 'dislike_reason',
        blockId: String(block.block_id ?? ''),
        value: String(accessory.value ?? ''),
        text: isRecord(accessory.text) ? String(accessory.text.text ?? '') : '',
      };
    }
  }
  return undefined;
}

/** The rated line's "Say what was wrong" button; throws when the message has none. */
export function reasonButtonOf(call: RecordedCall): ReasonButton {
  const button = findReasonButton(call);
  if (button === undefined) throw new Error(`no reason button in ${JSON.stringify(call.body.blocks)}`);
  return button;
}

/** Asks in the DM and returns the answer: the update of its placeholder. */
export async function askInDm(
  h: GatewayHarness,
  question: string,
  user: string = IDS.user,
): Promise<RecordedCall> {
  const fresh = since(h.slack);
  expect((await h.sendEvent(directMessage({ text: question, user }))).status).toBe(200);
  const placeholder = await h.slack.waitForCall(
    'chat.postMessage',
    (call) => call.body.channel === IDS.dm && fresh(call),
    WAIT_MS,
  );
  const placeholderTs = String(placeholder.response?.ts);
  return h.slack.waitForCall('chat.update', (call) => call.body.ts === placeholderTs, WAIT_MS);
}

/** A view submission's acknowledgement: {} for an empty 200, else its JSON (a response_action). */
export function ackOf(response: { status: number; text: string }): Record<string, unknown> {
  expect(response.status).toBe(200);
  if (response.text === '') return {};
  const body: unknown = JSON.parse(response.text);
  if (!isRecord(body)) throw new Error(`not a JSON object: ${response.text}`);
  return body;
}

/** The values a modal is submitted with when the person changes only `changes` (null clears one). */
export function asSubmitted(
  view: Record<string, unknown>,
  changes: Record<string, InputValue | null> = {},
): Record<string, InputValue> {
  const values: Record<string, InputValue> = {};
  for (const block of viewBlocks(view)) {
    const element = block.element;
    if (block.type !== 'input' || typeof block.block_id !== 'string' || !isRecord(element)) continue;
    const id = block.block_id;
    if (typeof element.initial_value === 'string') values[id] = { text: element.initial_value };
    else if (isRecord(element.initial_option) && typeof element.initial_option.value === 'string') {
      values[id] = { option: element.initial_option.value };
    } else if (typeof element.initial_date === 'string') values[id] = { date: element.initial_date };
    else if (typeof element.initial_time === 'string') values[id] = { time: element.initial_time };
  }
  for (const [id, value] of Object.entries(changes)) {
    if (value === null) delete values[id];
    else values[id] = value;
  }
  return values;
}
