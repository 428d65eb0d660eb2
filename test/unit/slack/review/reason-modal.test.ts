import type { types } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../../../src/conversation/locale.js';
import { REASON_BLOCK_ID, readReasonMetadata } from '../../../../src/slack/review/forms.js';
import { VIEW_DISLIKE_REASON } from '../../../../src/slack/review/ids.js';
import { renderReasonModal } from '../../../../src/slack/review/reason-modal.js';
import { elementOf, expectModalWithinLimits } from '../../../support/block-kit.js';

type KnownBlock = types.KnownBlock;

describe('renderReasonModal', () => {
  it('offers the four reasons, none chosen, and a text of 500 characters at most', () => {
    const view = renderReasonModal({ contextKey: 'ctx-1', locale: 'en' });
    expectModalWithinLimits(view);
    expect(view.callback_id).toBe(VIEW_DISLIKE_REASON);
    const radio = elementOf(view, REASON_BLOCK_ID);
    expect(radio.type).toBe('radio_buttons');
    if (radio.type !== 'radio_buttons') return;
    expect(radio.initial_option).toBeUndefined();
    expect(radio.options.map((option) => option.value)).toEqual([
      'wrong_answer',
      'out_of_date',
      'not_understood',
      'other',
    ]);
    const text = (view.blocks as KnownBlock[]).find(
      (block) => block.type === 'input' && block.element.type === 'plain_text_input',
    );
    expect(
      text?.type === 'input' && text.element.type === 'plain_text_input' && text.element.max_length,
    ).toBe(500);
    expect(readReasonMetadata(view.private_metadata)).toEqual({ contextKey: 'ctx-1', rated: undefined });
  });

  it('fits Slack’s limits in both languages', () => {
    for (const locale of LOCALES) expectModalWithinLimits(renderReasonModal({ contextKey: 'k', locale }));
  });
});
