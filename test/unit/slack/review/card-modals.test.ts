import type { types } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { renderAnswerAskersModal, renderLinkEntryModal } from '../../../../src/slack/review/card-modals.js';
import {
  encodeCardModalMetadata,
  readCardModalMetadata,
  readLinkedDocId,
  readOperatorAnswer,
} from '../../../../src/slack/review/forms.js';
import { renderPersonAnswer } from '../../../../src/slack/review/person-answer.js';
import { expectMessageWithinLimits, expectModalWithinLimits, textsOf } from '../../../support/block-kit.js';

type KnownBlock = types.KnownBlock;

const input = { cardId: `q:${'f'.repeat(32)}`, channel: 'C0REVIEW', question: `<b>${'llama? '.repeat(400)}` };

function submitted(blockId: string, value: string | null) {
  return { state: { values: { [blockId]: { [blockId]: { type: 'plain_text_input', value } } } } };
}

describe("an unanswered card's modals", () => {
  it('fit Slack in both languages with a huge question, which they show escaped', () => {
    for (const locale of ['en', 'zh-CN'] as const) {
      for (const view of [
        renderAnswerAskersModal({ ...input, locale }),
        renderLinkEntryModal({ ...input, locale }),
      ]) {
        expectModalWithinLimits(view);
        expect(readCardModalMetadata(view.private_metadata)).toEqual({
          cardId: input.cardId,
          channel: 'C0REVIEW',
        });
        expect(textsOf(view.blocks as KnownBlock[])).toContain('&lt;b&gt;llama?');
      }
    }
  });

  it('read back only metadata they wrote', () => {
    expect(readCardModalMetadata(encodeCardModalMetadata({ cardId: 'doc:d-1', channel: 'C1' }))).toEqual({
      cardId: 'doc:d-1',
      channel: 'C1',
    });
    for (const raw of [
      '{"v":1,"c":"x","ch":"C1"}',
      '{"v":1,"c":"doc:d","ch":"<!here>"}',
      '{"v":1,"c":"doc:d"}',
      7,
    ]) {
      expect(readCardModalMetadata(raw)).toBeUndefined();
    }
  });

  it('read the answer trimmed (blank is none) and a docId without spaces', () => {
    expect(readOperatorAnswer(submitted('review_answer_text', '  Yes.  '))).toBe('Yes.');
    expect(readOperatorAnswer(submitted('review_answer_text', '   '))).toBeUndefined();
    expect(readOperatorAnswer(submitted('review_answer_text', null))).toBeUndefined();
    expect(readLinkedDocId(submitted('review_link_doc', ' doc-wifi '))).toBe('doc-wifi');
    expect(readLinkedDocId(submitted('review_link_doc', 'doc wifi'))).toBeUndefined();
    expect(readLinkedDocId(submitted('review_link_doc', 'd'.repeat(257)))).toBeUndefined();
  });
});

describe("an operator's answer as the asker gets it", () => {
  it('names the operator as a person, quotes the answer line by line, escaped, in their language', () => {
    const message = renderPersonAnswer({
      locale: 'en',
      operatorId: 'U0OP',
      question: 'Can I <bring> my llama?',
      text: 'Yes, on Fridays.\n<!channel> & friends',
    });
    expectMessageWithinLimits(message);
    const texts = textsOf(message.blocks);
    expect(texts).toContain(
      '👤 <@U0OP>, a person on the support team (not the bot), answered your question “Can I &lt;bring&gt; my llama?”:',
    );
    expect(texts).toContain('>Yes, on Fridays.\n>&lt;!channel&gt; &amp; friends');
    const zh = renderPersonAnswer({
      locale: 'zh-CN',
      operatorId: 'U0OP',
      question: '能带羊驼吗？',
      text: '可以。',
    });
    expect(textsOf(zh.blocks)).toContain(
      '支持团队的 <@U0OP>（真人，不是机器人）回答了你的问题“能带羊驼吗？”',
    );
  });
});
