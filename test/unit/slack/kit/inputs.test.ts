import { describe, expect, it } from 'vitest';
import {
  dateInput,
  fitting,
  pickerValue,
  selectedOption,
  stateValues,
  textInput,
  textValue,
  timeInput,
} from '../../../../src/slack/kit/inputs.js';

describe('input blocks', () => {
  it('are optional to Slack, and use the block id as action id unless told', () => {
    const input = textInput('b', 'Label', { max: 10, multiline: false });
    expect(input).toMatchObject({
      block_id: 'b',
      optional: true,
      element: { action_id: 'b', max_length: 10 },
    });
    expect(textInput('b', 'L', { actionId: 'a', max: 10, multiline: true }).element.action_id).toBe('a');
  });

  it('leave out an initial value Slack would refuse', () => {
    expect(
      textInput('b', 'L', { initial: 'x'.repeat(11), max: 10, multiline: false }).element,
    ).not.toHaveProperty('initial_value');
    expect(dateInput('d', 'L', '2025-3-4', 'hint').element).not.toHaveProperty('initial_date');
    expect(dateInput('d', 'L', '2025-03-04', 'hint').element).toMatchObject({ initial_date: '2025-03-04' });
    expect(timeInput('t', 'L', '24:00').element).not.toHaveProperty('initial_time');
    expect(timeInput('t', 'L', '23:59').element).toMatchObject({ initial_time: '23:59' });
  });

  it('fit a text whole or not at all', () => {
    expect(fitting('abc', 3)).toBe('abc');
    expect(fitting('abcd', 3)).toBeUndefined();
    expect(fitting('', 3)).toBeUndefined();
  });
});

describe('reading a submitted view', () => {
  it('reads each kind of input, and garbage as nothing, never throwing', () => {
    const values = stateValues({
      state: {
        values: {
          t: { t: { value: 'typed' } },
          s: { s: { selected_option: { value: 'v' } } },
          d: { d: { selected_date: '2025-03-04' } },
          c: { c: { selected_time: ' ' } },
        },
      },
    });
    expect(textValue(values, 't', 't')).toBe('typed');
    expect(selectedOption(values, 's', 's')).toBe('v');
    expect(pickerValue(values, 'd', 'selected_date')).toBe('2025-03-04');
    expect(pickerValue(values, 'c', 'selected_time')).toBeUndefined();
    expect(textValue(values, 'toString', 'toString')).toBeUndefined();
    for (const garbage of [undefined, null, 'x', { state: { values: [] } }]) {
      expect(stateValues(garbage)).toEqual({});
    }
  });
});
