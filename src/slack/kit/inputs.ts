// Input blocks and reading their values back: a submitted view is untrusted, so every reader checks with
// zod, never throws, and reads anything missing or malformed as undefined.
import type { types } from '@slack/bolt';
import { z } from 'zod';
import { BLOCK_KIT } from './block-kit-limits.js';
import { plainText } from './elements.js';

type InputBlock = types.InputBlock;
type PlainTextOption = types.PlainTextOption;

export const TEXT_INPUT_MAX = BLOCK_KIT.textInput.value;

export function option(text: string, value: string): PlainTextOption {
  return { text: plainText(text, BLOCK_KIT.option.text), value };
}

/**
 * Optional to Slack unless `required`: the listener decides what is missing and says so inline, in
 * the form's words; a field every submission needs is marked so Slack does not label it optional.
 */
export function input(
  blockId: string,
  label: string,
  element: InputBlock['element'],
  { hint, required = false }: { hint?: string | undefined; required?: boolean | undefined } = {},
): InputBlock {
  return {
    type: 'input',
    block_id: blockId,
    optional: !required,
    label: plainText(label, BLOCK_KIT.input.label),
    ...(hint === undefined ? {} : { hint: plainText(hint, BLOCK_KIT.input.hint) }),
    element,
  };
}

/** An initial text that does not fit whole is left out: Slack would refuse the view. */
export function textInput(
  blockId: string,
  label: string,
  options: {
    actionId?: string;
    initial?: string | undefined;
    max: number;
    multiline: boolean;
    hint?: string;
    required?: boolean;
  },
): InputBlock {
  const initial = fitting(options.initial, options.max);
  return input(
    blockId,
    label,
    {
      type: 'plain_text_input',
      action_id: options.actionId ?? blockId,
      multiline: options.multiline,
      max_length: options.max,
      ...(initial === undefined ? {} : { initial_value: initial }),
    },
    options,
  );
}

export function radioInput(
  blockId: string,
  label: string,
  options: { actionId: string; options: PlainTextOption[] },
): InputBlock {
  return input(blockId, label, {
    type: 'radio_buttons',
    action_id: options.actionId,
    options: options.options,
  });
}

/** `initial` must be one of `options`, as the same object. */
export function selectInput(
  blockId: string,
  label: string,
  options: PlainTextOption[],
  choice: { initial: PlainTextOption | undefined; placeholder: string | undefined },
): InputBlock {
  return input(blockId, label, {
    type: 'static_select',
    action_id: blockId,
    options,
    ...(choice.placeholder === undefined
      ? {}
      : { placeholder: plainText(choice.placeholder, BLOCK_KIT.placeholder) }),
    ...(choice.initial === undefined ? {} : { initial_option: choice.initial }),
  });
}

/** A public or private channel, picked by name; `initial` preselects one by id. */
export function channelInput(
  blockId: string,
  label: string,
  choice: { initial: string | undefined; placeholder: string; hint: string },
): InputBlock {
  return input(
    blockId,
    label,
    {
      type: 'conversations_select',
      action_id: blockId,
      placeholder: plainText(choice.placeholder, BLOCK_KIT.placeholder),
      filter: { include: ['public', 'private'], exclude_bot_users: true },
      ...(choice.initial === undefined ? {} : { initial_conversation: choice.initial }),
    },
    choice,
  );
}

export function dateInput(
  blockId: string,
  label: string,
  initial: string | undefined,
  hint: string,
): InputBlock {
  // Slack refuses a view whose initial date is not yyyy-MM-dd.
  const date = initial !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(initial) ? initial : undefined;
  return input(
    blockId,
    label,
    { type: 'datepicker', action_id: blockId, ...(date === undefined ? {} : { initial_date: date }) },
    { hint },
  );
}

export function timeInput(blockId: string, label: string, initial: string | undefined): InputBlock {
  const time = initial !== undefined && /^([01]\d|2[0-3]):[0-5]\d$/.test(initial) ? initial : undefined;
  return input(blockId, label, {
    type: 'timepicker',
    action_id: blockId,
    ...(time === undefined ? {} : { initial_time: time }),
  });
}

/** An input's initial_value may not exceed its max_length. */
export function fitting(text: string | undefined, max: number): string | undefined {
  return text === undefined || text === '' || text.length > max ? undefined : text;
}

const stateSchema = z.object({
  state: z.object({ values: z.record(z.string(), z.record(z.string(), z.unknown())) }),
});
const textElementSchema = z.object({ value: z.string().nullish() });
const selectElementSchema = z.object({ selected_option: z.object({ value: z.string() }).nullish() });
const pickerElementSchema = z.object({
  selected_date: z.string().max(32).nullish(),
  selected_time: z.string().max(32).nullish(),
});

export type StateValues = Record<string, Record<string, unknown>>;

export function stateValues(view: unknown): StateValues {
  const parsed = stateSchema.safeParse(view);
  return parsed.success ? parsed.data.state.values : {};
}

function element(values: StateValues, blockId: string, actionId: string): unknown {
  return Object.hasOwn(values, blockId) ? values[blockId]?.[actionId] : undefined;
}

/** Blank included. */
export function textValue(values: StateValues, blockId: string, actionId: string): string | undefined {
  const parsed = textElementSchema.safeParse(element(values, blockId, actionId));
  return parsed.success ? (parsed.data.value ?? undefined) : undefined;
}

export function selectedOption(values: StateValues, blockId: string, actionId: string): string | undefined {
  const parsed = selectElementSchema.safeParse(element(values, blockId, actionId));
  return parsed.success ? parsed.data.selected_option?.value : undefined;
}

const conversationElementSchema = z.object({ selected_conversation: z.string().max(64).nullish() });

export function selectedConversation(values: StateValues, blockId: string): string | undefined {
  const parsed = conversationElementSchema.safeParse(element(values, blockId, blockId));
  return parsed.success ? (parsed.data.selected_conversation ?? undefined) : undefined;
}

/** Blank reads as undefined. */
export function pickerValue(
  values: StateValues,
  blockId: string,
  field: 'selected_date' | 'selected_time',
): string | undefined {
  const parsed = pickerElementSchema.safeParse(element(values, blockId, blockId));
  const value = parsed.success ? parsed.data[field] : undefined;
  return value === null || value === undefined || value.trim() === '' ? undefined : value;
}
