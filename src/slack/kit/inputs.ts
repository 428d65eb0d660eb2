// Input blocks (text, radio buttons, select, date and time pickers) and reading their values back
// from a submitted view. A view comes back from Slack as untrusted data: every reader checks with
// zod and never throws, and anything missing or malformed reads as undefined.
import type { types } from '@slack/bolt';
import { z } from 'zod';
import { BLOCK_KIT } from './block-kit-limits.js';
import { plainText } from './elements.js';

type InputBlock = types.InputBlock;
type PlainTextOption = types.PlainTextOption;

// Slack's limits on what these inputs use (Block Kit reference).
const INPUT_LABEL_MAX = BLOCK_KIT.input.label;
const HINT_MAX = BLOCK_KIT.input.hint;
const PLACEHOLDER_MAX = BLOCK_KIT.placeholder;
const OPTION_TEXT_MAX = BLOCK_KIT.option.text;
/** The most a plain_text_input holds. */
export const TEXT_INPUT_MAX = BLOCK_KIT.textInput.value;

/** An option of a select or of radio buttons, its text cut to Slack's limit. */
export function option(text: string, value: string): PlainTextOption {
  return { text: plainText(text, OPTION_TEXT_MAX), value };
}

/**
 * Every input is optional to Slack: the listener that reads the form decides what is missing and
 * says so inline, in the form's own words.
 */
function input(
  blockId: string,
  label: string,
  element: InputBlock['element'],
  hint: string | undefined,
): InputBlock {
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: plainText(label, INPUT_LABEL_MAX),
    ...(hint === undefined ? {} : { hint: plainText(hint, HINT_MAX) }),
    element,
  };
}

/** A text input; an initial text that does not fit whole is left out (Slack would refuse the view). */
export function textInput(
  blockId: string,
  label: string,
  options: {
    /** The block's id unless told. */
    actionId?: string;
    initial?: string | undefined;
    max: number;
    multiline: boolean;
    hint?: string;
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
    options.hint,
  );
}

/** Radio buttons, none chosen. */
export function radioInput(
  blockId: string,
  label: string,
  options: { actionId: string; options: PlainTextOption[] },
): InputBlock {
  return input(
    blockId,
    label,
    { type: 'radio_buttons', action_id: options.actionId, options: options.options },
    undefined,
  );
}

/** A static select whose action id is its block's; `initial` must be one of `options`, as the same object. */
export function selectInput(
  blockId: string,
  label: string,
  options: PlainTextOption[],
  choice: { initial: PlainTextOption | undefined; placeholder: string | undefined },
): InputBlock {
  return input(
    blockId,
    label,
    {
      type: 'static_select',
      action_id: blockId,
      options,
      ...(choice.placeholder === undefined
        ? {}
        : { placeholder: plainText(choice.placeholder, PLACEHOLDER_MAX) }),
      ...(choice.initial === undefined ? {} : { initial_option: choice.initial }),
    },
    undefined,
  );
}

/** A date picker whose action id is its block's; an initial date not yyyy-MM-dd is left out. */
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
    hint,
  );
}

/** A time picker whose action id is its block's; an initial time not HH:mm is left out. */
export function timeInput(blockId: string, label: string, initial: string | undefined): InputBlock {
  const time = initial !== undefined && /^([01]\d|2[0-3]):[0-5]\d$/.test(initial) ? initial : undefined;
  return input(
    blockId,
    label,
    { type: 'timepicker', action_id: blockId, ...(time === undefined ? {} : { initial_time: time }) },
    undefined,
  );
}

/** A text that fits an input whole, or undefined: an input's initial_value may not exceed its max_length. */
export function fitting(text: string | undefined, max: number): string | undefined {
  return text === undefined || text === '' || text.length > max ? undefined : text;
}

// ---------------------------------------------------------------- reading a submitted view

const stateSchema = z.object({
  state: z.object({ values: z.record(z.string(), z.record(z.string(), z.unknown())) }),
});
const textElementSchema = z.object({ value: z.string().nullish() });
const selectElementSchema = z.object({ selected_option: z.object({ value: z.string() }).nullish() });
const pickerElementSchema = z.object({
  selected_date: z.string().max(32).nullish(),
  selected_time: z.string().max(32).nullish(),
});

/** A submitted view's input values, by block id and action id; empty for anything else. */
export type StateValues = Record<string, Record<string, unknown>>;

export function stateValues(view: unknown): StateValues {
  const parsed = stateSchema.safeParse(view);
  return parsed.success ? parsed.data.state.values : {};
}

function element(values: StateValues, blockId: string, actionId: string): unknown {
  return Object.hasOwn(values, blockId) ? values[blockId]?.[actionId] : undefined;
}

/** A text input's value as typed (blank included). */
export function textValue(values: StateValues, blockId: string, actionId: string): string | undefined {
  const parsed = textElementSchema.safeParse(element(values, blockId, actionId));
  return parsed.success ? (parsed.data.value ?? undefined) : undefined;
}

/** The value of the option chosen in a select or radio buttons. */
export function selectedOption(values: StateValues, blockId: string, actionId: string): string | undefined {
  const parsed = selectElementSchema.safeParse(element(values, blockId, actionId));
  return parsed.success ? parsed.data.selected_option?.value : undefined;
}

/** A date or time picker's value (its action id is its block's); blank reads as undefined. */
export function pickerValue(
  values: StateValues,
  blockId: string,
  field: 'selected_date' | 'selected_time',
): string | undefined {
  const parsed = pickerElementSchema.safeParse(element(values, blockId, blockId));
  const value = parsed.success ? parsed.data[field] : undefined;
  return value === null || value === undefined || value.trim() === '' ? undefined : value;
}
