import type { types } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import type { EditForm } from '../../../../src/review/types.js';
import { renderEditModal } from '../../../../src/slack/review/edit-modal.js';
import {
  EDIT_BLOCK_IDS,
  encodeEditMetadata,
  REASON_BLOCK_ID,
  readEditForm,
  readEditMetadata,
  readReasonForm,
  readReasonMetadata,
} from '../../../../src/slack/review/forms.js';
import { VIEW_EDIT_ENTRY } from '../../../../src/slack/review/ids.js';
import { renderReasonModal } from '../../../../src/slack/review/reason-modal.js';
import { elementOf } from '../../../support/block-kit.js';
import { emptyForm, modalInput, sha256 } from '../../../support/review-views.js';

type KnownBlock = types.KnownBlock;
type InputBlock = types.InputBlock;

describe('readReasonMetadata and readReasonForm', () => {
  it('refuses forged metadata', () => {
    for (const raw of [
      undefined,
      1,
      '',
      'x',
      '{"v":1}',
      '{"v":2,"k":"a"}',
      '{"v":1,"k":"a","x":1}',
      `{"v":1,"k":"${'a'.repeat(200)}"}`,
    ]) {
      expect(readReasonMetadata(raw)).toBeUndefined();
    }
  });

  it('reads a real submission, and garbage as nothing', () => {
    const view = renderReasonModal({ contextKey: 'k', locale: 'en' });
    const textBlock = (view.blocks as KnownBlock[]).find(
      (block): block is InputBlock => block.type === 'input' && block.element.type === 'plain_text_input',
    );
    const textBlockId = textBlock?.block_id ?? '';
    const textActionId = textBlock?.element.action_id ?? '';
    const radioActionId = elementOf(view, REASON_BLOCK_ID).action_id ?? '';
    const submitted = {
      id: 'V1',
      state: {
        values: {
          [REASON_BLOCK_ID]: {
            [radioActionId]: {
              type: 'radio_buttons',
              selected_option: { text: { type: 'plain_text', text: 'Other', emoji: true }, value: 'other' },
            },
          },
          [textBlockId]: {
            [textActionId]: { type: 'plain_text_input', value: '  It links to the old form.  ' },
          },
        },
      },
    };
    expect(readReasonForm(submitted)).toEqual({ reason: 'other', text: 'It links to the old form.' });
    const empty = {
      state: {
        values: {
          [REASON_BLOCK_ID]: { [radioActionId]: { type: 'radio_buttons', selected_option: null } },
          [textBlockId]: { [textActionId]: { type: 'plain_text_input', value: ' \n ' } },
        },
      },
    };
    expect(readReasonForm(empty)).toEqual({ reason: undefined, text: undefined });
    const forged = {
      state: {
        values: {
          [REASON_BLOCK_ID]: { [radioActionId]: { selected_option: { value: 'toString' } } },
          [textBlockId]: { [textActionId]: { value: 'x'.repeat(900) } },
        },
      },
    };
    const read = readReasonForm(forged);
    expect(read.reason).toBeUndefined();
    expect(read.text?.length).toBeLessThanOrEqual(500);
    for (const garbage of [undefined, null, 'x', [], { state: 1 }, { state: { values: [] } }]) {
      expect(readReasonForm(garbage)).toEqual({ reason: undefined, text: undefined });
    }
  });
});

describe('edit metadata', () => {
  it('round-trips', () => {
    const raw = encodeEditMetadata({
      docId: 'd',
      cardId: 'q:abc',
      titleHash: sha256('t'),
      answerHash: undefined,
    });
    expect(readEditMetadata(raw)).toEqual({ v: 1, d: 'd', c: 'q:abc', t: sha256('t') });
  });

  it('leaves out a card id that would not fit beside the docId', () => {
    const docId = '\u0001'.repeat(256);
    const raw = encodeEditMetadata({
      docId,
      cardId: `doc:${docId}`,
      titleHash: sha256('t'),
      answerHash: sha256('a'),
    });
    expect(raw.length).toBeLessThanOrEqual(3000);
    expect(readEditMetadata(raw)).toEqual({ v: 1, d: docId, t: sha256('t'), a: sha256('a') });
  });

  it('refuses forged or garbage metadata', () => {
    const forged = [
      undefined,
      42,
      '',
      'not json',
      '[]',
      '{"v":2,"d":"d"}',
      '{"v":1}',
      '{"v":1,"d":""}',
      `{"v":1,"d":"${'x'.repeat(300)}"}`,
      '{"v":1,"d":"d","t":"abc"}',
      `{"v":1,"d":"d","a":"${'A'.repeat(64)}"}`,
      '{"v":1,"d":"d","c":"nope"}',
      '{"v":1,"d":"d","x":1}',
      `{"v":1,"d":"d","pad":"${'x'.repeat(3000)}"}`,
    ];
    for (const raw of forged) expect(readEditMetadata(raw)).toBeUndefined();
  });
});

describe('readEditForm', () => {
  const option = (text: string, value: string) => ({
    text: { type: 'plain_text', text, emoji: true },
    value,
  });

  it('reads a submission as Slack sends it', () => {
    const view = {
      id: 'V123',
      type: 'modal',
      callback_id: VIEW_EDIT_ENTRY,
      private_metadata: '{}',
      state: {
        values: {
          [EDIT_BLOCK_IDS.questionTitle]: {
            [EDIT_BLOCK_IDS.questionTitle]: { type: 'plain_text_input', value: 'How do I reset it?' },
          },
          [EDIT_BLOCK_IDS.answerDesc]: {
            [EDIT_BLOCK_IDS.answerDesc]: {
              type: 'plain_text_input',
              value: 'Go to **Settings**.\n- one\n- two',
            },
          },
          [EDIT_BLOCK_IDS.matchFlag]: {
            [EDIT_BLOCK_IDS.matchFlag]: {
              type: 'static_select',
              selected_option: option('Exact match', 'exact'),
            },
          },
          [EDIT_BLOCK_IDS.usedFlag]: {
            [EDIT_BLOCK_IDS.usedFlag]: {
              type: 'static_select',
              selected_option: option('Enabled', 'enabled'),
            },
          },
          [EDIT_BLOCK_IDS.robotFlag]: {
            [EDIT_BLOCK_IDS.robotFlag]: { type: 'static_select', selected_option: null },
          },
          [EDIT_BLOCK_IDS.validity]: {
            [EDIT_BLOCK_IDS.validity]: {
              type: 'static_select',
              selected_option: option('For a period', 'period'),
            },
          },
          [EDIT_BLOCK_IDS.effectDate]: {
            [EDIT_BLOCK_IDS.effectDate]: { type: 'datepicker', selected_date: '2025-04-01' },
          },
          [EDIT_BLOCK_IDS.effectClock]: {
            [EDIT_BLOCK_IDS.effectClock]: { type: 'timepicker', selected_time: '08:30' },
          },
          [EDIT_BLOCK_IDS.invalidDate]: {
            [EDIT_BLOCK_IDS.invalidDate]: { type: 'datepicker', selected_date: '2025-05-01' },
          },
          [EDIT_BLOCK_IDS.invalidClock]: {
            [EDIT_BLOCK_IDS.invalidClock]: { type: 'timepicker', selected_time: null },
          },
        },
      },
    };
    expect(readEditForm(view)).toEqual({
      questionTitle: 'How do I reset it?',
      answerMarkup: 'Go to **Settings**.\n- one\n- two',
      matchFlag: 1,
      usedFlag: 0,
      robotFlag: undefined,
      validity: 'period',
      effectDate: '2025-04-01',
      effectClock: '08:30',
      invalidDate: '2025-05-01',
      invalidClock: undefined,
    });
  });

  it('reads every option back to its flag', () => {
    const form = (blockId: string, value: string) =>
      readEditForm({ state: { values: { [blockId]: { [blockId]: { selected_option: { value } } } } } });
    expect(form(EDIT_BLOCK_IDS.matchFlag, 'smart').matchFlag).toBe(0);
    expect(form(EDIT_BLOCK_IDS.matchFlag, 'contains').matchFlag).toBe(2);
    expect(form(EDIT_BLOCK_IDS.usedFlag, 'disabled').usedFlag).toBe(1);
    expect(form(EDIT_BLOCK_IDS.robotFlag, 'public').robotFlag).toBe(0);
    expect(form(EDIT_BLOCK_IDS.robotFlag, 'robot').robotFlag).toBe(1);
    expect(form(EDIT_BLOCK_IDS.validity, 'permanent').validity).toBe('permanent');
    expect(form(EDIT_BLOCK_IDS.matchFlag, '0').matchFlag).toBeUndefined();
  });

  it('reads blank texts as left empty', () => {
    const view = {
      state: {
        values: {
          [EDIT_BLOCK_IDS.questionTitle]: {
            [EDIT_BLOCK_IDS.questionTitle]: { type: 'plain_text_input', value: '  \n ' },
          },
          [EDIT_BLOCK_IDS.answerDesc]: {
            [EDIT_BLOCK_IDS.answerDesc]: { type: 'plain_text_input', value: null },
          },
        },
      },
    };
    expect(readEditForm(view)).toEqual(emptyForm);
  });

  it('reads garbage as an empty form and never throws', () => {
    const garbage: unknown[] = [
      undefined,
      null,
      7,
      'view',
      [],
      { state: null },
      { state: { values: 'x' } },
      { state: { values: { [EDIT_BLOCK_IDS.questionTitle]: 'x' } } },
      {
        state: {
          values: { [EDIT_BLOCK_IDS.questionTitle]: { [EDIT_BLOCK_IDS.questionTitle]: { value: 5 } } },
        },
      },
      {
        state: {
          values: {
            [EDIT_BLOCK_IDS.matchFlag]: { [EDIT_BLOCK_IDS.matchFlag]: { selected_option: 'smart' } },
          },
        },
      },
      {
        state: {
          values: {
            [EDIT_BLOCK_IDS.effectDate]: { [EDIT_BLOCK_IDS.effectDate]: { selected_date: 20250401 } },
          },
        },
      },
      { state: { values: { toString: { toString: { value: 'x' } } } } },
    ];
    for (const view of garbage) expect(readEditForm(view)).toEqual(emptyForm);
  });

  it('reads back what the modal itself would show again', () => {
    const values: EditForm = {
      questionTitle: 'T',
      answerMarkup: 'A',
      matchFlag: 0,
      usedFlag: 1,
      robotFlag: 1,
      validity: 'permanent',
      effectDate: '2025-01-02',
      effectClock: '23:59',
      invalidDate: '2025-02-03',
      invalidClock: '00:00',
    };
    const view = renderEditModal(modalInput({ values }));
    // As Slack would submit the untouched view: each element's initial value as its state.
    const state: Record<string, Record<string, unknown>> = {};
    for (const block of view.blocks as KnownBlock[]) {
      if (block.type !== 'input' || !block.block_id) continue;
      const element = block.element;
      const actionId = element.action_id;
      if (!actionId) continue;
      const submitted =
        element.type === 'plain_text_input'
          ? { value: element.initial_value ?? null }
          : element.type === 'static_select'
            ? { selected_option: element.initial_option ?? null }
            : element.type === 'datepicker'
              ? { selected_date: element.initial_date ?? null }
              : element.type === 'timepicker'
                ? { selected_time: element.initial_time ?? null }
                : {};
      state[block.block_id] = { [actionId]: { type: element.type, ...submitted } };
    }
    expect(readEditForm({ state: { values: state } })).toEqual(values);
  });
});
