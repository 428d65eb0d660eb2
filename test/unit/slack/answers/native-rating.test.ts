// Slack's own rating element on an answer (RATING_BUTTONS=native, and always in the assistant panel).
import { describe, expect, it } from 'vitest';
import { checkMessage } from '../../../../playground/slack-stand-in/block-kit-checks.js';
import type { AnswerReply } from '../../../../src/conversation/types.js';
import { renderReply } from '../../../../src/slack/answers/blocks.js';
import { decodeRatingValue } from '../../../../src/slack/kit/button-values.js';

function answer(overrides: Partial<AnswerReply> = {}): AnswerReply {
  return {
    kind: 'answer',
    contextKey: 'ctx-native',
    answerHtml: 'Reset it from <b>Settings</b>.',
    stripe: undefined,
    suggestions: [{ question: 'How do I change my password?', docId: 'doc-2' }],
    rateable: true,
    matched: true,
    clickedBy: undefined,
    demo: false,
    locale: 'en',
    ...overrides,
  };
}

function ratingBlockOf(reply: AnswerReply) {
  const [message] = renderReply(reply, { rating: 'native' });
  return { message, rating: message?.blocks.find((block) => block.block_id === 'rating') };
}

describe('native rating', () => {
  it('is one feedback_buttons element in a context_actions block, which Slack takes', () => {
    const { message, rating } = ratingBlockOf(answer());
    expect(rating).toMatchObject({
      type: 'context_actions',
      elements: [
        {
          type: 'feedback_buttons',
          action_id: 'rate_feedback',
          positive_button: {
            text: { type: 'plain_text', text: '👍' },
            accessibility_label: 'This answer was helpful',
          },
          negative_button: {
            text: { type: 'plain_text', text: '👎' },
            accessibility_label: 'This answer was not helpful',
          },
        },
      ],
    });
    expect(message && checkMessage(JSON.parse(JSON.stringify(message)))).toBeUndefined();
    // No classic buttons beside it.
    expect(JSON.stringify(message?.blocks)).not.toContain('rate_up');
  });

  it('carries the same values as the classic buttons: the answer and which side', () => {
    const { rating } = ratingBlockOf(answer());
    const element = rating?.type === 'context_actions' ? rating.elements[0] : undefined;
    if (element?.type !== 'feedback_buttons') throw new Error('no feedback_buttons');
    expect(decodeRatingValue(element.positive_button.value)).toMatchObject({ k: 'ctx-native', r: 1 });
    expect(decodeRatingValue(element.negative_button.value)).toMatchObject({ k: 'ctx-native', r: 2 });
    const [classic] = renderReply(answer(), { rating: 'classic' });
    const values = JSON.stringify(classic?.blocks);
    expect(values).toContain(JSON.stringify(element.positive_button.value).slice(1, -1));
  });

  it('is labelled in Chinese for a Chinese reader, and absent where an answer cannot be rated', () => {
    const { rating } = ratingBlockOf(answer({ locale: 'zh-CN' }));
    expect(JSON.stringify(rating)).toContain('这个回答有帮助');
    expect(ratingBlockOf(answer({ rateable: false })).rating).toBeUndefined();
  });
});
