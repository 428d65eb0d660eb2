import type { types } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { renderEditSaved, renderEditSaving } from '../../../../src/slack/review/edit-saved.js';
import { expectModalWithinLimits, textsOf } from '../../../support/block-kit.js';

type KnownBlock = types.KnownBlock;

describe('renderEditSaved', () => {
  it('says what changed, with a close button and no submit', () => {
    const view = renderEditSaved({ locale: 'en', docId: 'd-42', changedFields: ['answerDesc', 'usedFlag'] });
    expectModalWithinLimits(view);
    expect(view.submit).toBeUndefined();
    expect(view.close?.text).toBe('Done');
    const texts = textsOf(view.blocks as KnownBlock[]);
    expect(texts).toContain('`d-42`');
    expect(texts).toContain('Changed: answer, state.');
    const zh = renderEditSaved({ locale: 'zh-CN', docId: 'd-42', changedFields: [] });
    expectModalWithinLimits(zh);
    expect(textsOf(zh.blocks as KnownBlock[])).not.toContain('修改了');
  });
});

describe('renderEditSaving', () => {
  it('says the change is being saved, and has no submit button to send it twice', () => {
    for (const locale of ['en', 'zh-CN'] as const) {
      const view = renderEditSaving({ locale, docId: 'd-42' });
      expectModalWithinLimits(view);
      expect(view.submit).toBeUndefined();
      expect(view.callback_id).toBeUndefined();
    }
    const texts = textsOf(renderEditSaving({ locale: 'en', docId: 'd-42' }).blocks as KnownBlock[]);
    expect(texts).toContain('⏳ Saving the change to entry `d-42` to the platform…');
  });
});
