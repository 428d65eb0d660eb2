import { describe, expect, it } from 'vitest';
import { decodeTryAgainValue } from '../../../../src/slack/kit/button-values.js';
import { renderAnswerUpdatedNotice } from '../../../../src/slack/review/answer-updated.js';
import { ACTION_ASK_AGAIN } from '../../../../src/slack/review/ids.js';
import { buttonsOf, expectMessageWithinLimits, json, textsOf } from '../../../support/block-kit.js';

describe('renderAnswerUpdatedNotice', () => {
  it('tells the asker, escaped, with an Ask again button the Try again listener can read', () => {
    const question = 'How do I reset <!channel> & my "password"?';
    const notice = renderAnswerUpdatedNotice({ locale: 'en', question });
    expectMessageWithinLimits(notice);
    expect(json([notice.text, textsOf(notice.blocks)])).not.toContain('<!channel>');
    expect(notice.text).toContain(
      'The knowledge-base team updated the answer to “How do I reset &lt;!channel&gt;',
    );
    const [button] = buttonsOf(notice.blocks);
    expect(button?.action_id).toBe(ACTION_ASK_AGAIN);
    expect(button?.text.text).toBe('Ask again');
    expect(decodeTryAgainValue(button?.value)).toEqual({ v: 1, q: question });
    expect(buttonsOf(renderAnswerUpdatedNotice({ locale: 'zh-CN', question }).blocks)[0]?.text.text).toBe(
      '再问一次',
    );
  });

  it('offers no button when there is no question to ask', () => {
    const notice = renderAnswerUpdatedNotice({ locale: 'en', question: '  ' });
    expect(buttonsOf(notice.blocks)).toEqual([]);
    expect(notice.text.trim()).not.toBe('');
  });

  it('stays within limits with a very long question', () => {
    expectMessageWithinLimits(renderAnswerUpdatedNotice({ locale: 'en', question: '&'.repeat(5000) }));
  });
});
