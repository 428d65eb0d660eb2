import { describe, expect, it } from 'vitest';
import type { ReviewCard } from '../../../../src/review/types.js';
import { decodeReviewCardValue } from '../../../../src/slack/kit/button-values.js';
import {
  ACTION_REVIEW_ANSWER,
  ACTION_REVIEW_DISMISS,
  ACTION_REVIEW_EDIT,
  ACTION_REVIEW_LINK,
} from '../../../../src/slack/review/ids.js';
import { renderReviewCard } from '../../../../src/slack/review/review-card.js';
import { buttonsOf, expectMessageWithinLimits, json, textsOf } from '../../../support/block-kit.js';
import { AT } from '../../../support/review-views.js';

function card(overrides: Partial<ReviewCard> = {}): ReviewCard {
  return {
    id: 'doc:d-42',
    kind: 'disliked',
    docId: 'd-42',
    entryTitle: 'How do I reset my password?',
    answerHtml: '<p>Go to <b>Settings</b> and click <a href="https://example.com/reset">Reset</a>.</p>',
    answerType: 1,
    question: 'how to reset password',
    otherWordings: [],
    robotFlag: 1,
    linked: undefined,
    count: 2,
    reasons: [{ reason: 'out_of_date', text: 'The menu moved', at: AT }],
    latestAsker: { userId: 'U777', displayName: 'Ann Lee' },
    latestLink: 'https://acme.slack.com/archives/C1/p123',
    latestConversation: 'C1',
    notify: [],
    status: 'open',
    handledBy: undefined,
    handledAt: undefined,
    changedFields: [],
    posted: undefined,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

describe('renderReviewCard', () => {
  it('shows an open disliked card: count, question, answer, entry, asker, link, reasons and both buttons', () => {
    const message = renderReviewCard(card(), { locale: 'en', showAsker: true });
    expectMessageWithinLimits(message);
    const [header] = message.blocks;
    expect(header).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: '👎 Answer disliked · 2 times', emoji: true },
    });
    const texts = textsOf(message.blocks);
    expect(texts).toContain('>how to reset password');
    expect(texts).toContain('*Settings*');
    expect(texts).toContain('How do I reset my password?');
    expect(texts).toContain('`d-42`');
    // The spec gives the answer types no meaning: a bare number is not shown.
    expect(texts).not.toMatch(/Answer type/);
    expect(texts).toContain(
      'Latest report: Ann Lee · <https://acme.slack.com/archives/C1/p123|View the message>',
    );
    expect(texts).toContain('• Out of date: “The menu moved”');
    expect(message.text).toContain('👎 Answer disliked · 2 times');

    const [edit, dismiss] = buttonsOf(message.blocks);
    expect(edit?.action_id).toBe(ACTION_REVIEW_EDIT);
    expect(edit?.style).toBe('primary');
    expect(decodeReviewCardValue(edit?.value)).toEqual({ cardId: 'doc:d-42', docId: 'd-42' });
    expect(dismiss?.action_id).toBe(ACTION_REVIEW_DISMISS);
    expect(dismiss?.style).toBe('danger');
    expect(dismiss?.confirm?.title?.text).toBe('Dismiss this card?');
    expect(decodeReviewCardValue(dismiss?.value)).toEqual({ cardId: 'doc:d-42', docId: undefined });
  });

  it('says "once" without a count, and offers an unanswered question Answer, Link and Dismiss, not Edit entry', () => {
    expect(renderReviewCard(card({ count: 1 }), { locale: 'en', showAsker: true }).text).toMatch(
      /^👎 Answer disliked: /,
    );
    const unanswered = card({
      id: `q:${'a'.repeat(32)}`,
      kind: 'unanswered',
      docId: undefined,
      entryTitle: undefined,
      answerHtml: undefined,
      answerType: undefined,
      reasons: [],
      count: 3,
    });
    const message = renderReviewCard(unanswered, { locale: 'en', showAsker: true });
    expectMessageWithinLimits(message);
    expect(textsOf(message.blocks)).toContain('❓ Unanswered question · asked 3 times');
    expect(textsOf(message.blocks)).not.toContain('Answer shown');
    const buttons = buttonsOf(message.blocks);
    expect(buttons.map((button) => button.action_id)).toEqual([
      ACTION_REVIEW_ANSWER,
      ACTION_REVIEW_LINK,
      ACTION_REVIEW_DISMISS,
    ]);
    for (const button of buttons) {
      expect(decodeReviewCardValue(button.value)).toEqual({ cardId: unanswered.id, docId: undefined });
    }
  });

  it('shows who fixed a card, when (in every reader’s time zone) and what changed, without buttons', () => {
    const fixed = card({
      status: 'fixed',
      handledBy: 'U123',
      handledAt: AT,
      changedFields: ['questionTitle', 'answerDesc', 'auditStatus', 'effectTime', 'invalidTime'],
    });
    const message = renderReviewCard(fixed, { locale: 'en', showAsker: true });
    expectMessageWithinLimits(message);
    expect(buttonsOf(message.blocks)).toEqual([]);
    const unix = Math.floor(AT / 1000);
    expect(textsOf(message.blocks)).toContain(
      `✅ Fixed by <@U123> <!date^${unix}^{date_short_pretty} {time}|4 Mar 2025, 09:30 UTC>: changed standard question, answer, validity`,
    );
    const zh = renderReviewCard(fixed, { locale: 'zh-CN', showAsker: true });
    expect(textsOf(zh.blocks)).toContain('修改了标准问题、答案、有效期');
    expect(textsOf(zh.blocks)).toContain('|2025年3月4日 UTC 09:30>');
  });

  it('shows who dismissed a card and when', () => {
    const dismissed = card({ status: 'dismissed', handledBy: 'U9', handledAt: AT });
    const message = renderReviewCard(dismissed, { locale: 'en', showAsker: true });
    expect(buttonsOf(message.blocks)).toEqual([]);
    expect(textsOf(message.blocks)).toContain(`Dismissed by <@U9> <!date^${Math.floor(AT / 1000)}^`);
  });

  it('does not mention a handler id that is not a Slack user id', () => {
    const message = renderReviewCard(card({ status: 'dismissed', handledBy: '<!channel>', handledAt: AT }), {
      locale: 'en',
      showAsker: true,
    });
    expect(json(message.blocks)).not.toContain('<!channel>');
  });

  it('hides the asker when the workspace says so', () => {
    const message = renderReviewCard(card(), { locale: 'en', showAsker: false });
    expect(json(message)).not.toContain('Ann Lee');
    expect(textsOf(message.blocks)).toContain(
      'Latest report: <https://acme.slack.com/archives/C1/p123|View the message>',
    );
  });

  it('says "in a direct message" for a DM, and links nothing that is not a plain http(s) URL', () => {
    const dm = renderReviewCard(card({ latestLink: 'direct_message' }), { locale: 'en', showAsker: true });
    expect(textsOf(dm.blocks)).toContain('Latest report: Ann Lee · in a direct message');
    expect(
      textsOf(
        renderReviewCard(card({ latestLink: 'direct_message' }), { locale: 'zh-CN', showAsker: true }).blocks,
      ),
    ).toContain('在私信中');
    const forged = renderReviewCard(card({ latestLink: 'https://x.example|Click me> <!here' }), {
      locale: 'en',
      showAsker: false,
    });
    expect(json(forged.blocks)).not.toContain('<!here');
    expect(json(forged.blocks)).not.toContain('View the message');
  });

  it('escapes the question, the names, the title and the reasons, and shows three reasons at most', () => {
    const message = renderReviewCard(
      card({
        question: 'why <!channel> & <https://evil.example|bank>?',
        entryTitle: 'A & <B>',
        latestAsker: { userId: 'U1', displayName: '<!here> Bob' },
        reasons: [
          { reason: 'other', text: 'see <https://evil.example|here> & <!everyone>', at: AT },
          { reason: 'wrong_answer', at: AT },
          { reason: 'not_understood', text: '  ', at: AT },
          { reason: 'out_of_date', text: 'fourth', at: AT },
        ],
      }),
      { locale: 'en', showAsker: true },
    );
    expectMessageWithinLimits(message);
    const all = json(message);
    for (const raw of ['<!channel>', '<!here>', '<!everyone>', '<https://evil.example|'])
      expect(all).not.toContain(raw);
    const texts = textsOf(message.blocks);
    expect(texts).toContain('why &lt;!channel&gt; &amp; &lt;https://evil.example|bank&gt;?');
    expect(texts).toContain('A &amp; &lt;B&gt;');
    expect(texts).toContain('• Other: “see &lt;https://evil.example|here&gt; &amp; &lt;!everyone&gt;”');
    expect(texts).toContain('• Wrong answer\n• Did not understand my question');
    expect(texts).not.toContain('fourth');
  });

  it('shortens a long answer to about 700 characters, ending in …', () => {
    const html = `<p>${'Lorem ipsum dolor sit amet. '.repeat(200)}</p>`;
    const message = renderReviewCard(card({ answerHtml: html }), { locale: 'en', showAsker: true });
    expectMessageWithinLimits(message);
    const answer = message.blocks.find(
      (block) => block.type === 'section' && block.text?.text.startsWith('*Answer shown*'),
    );
    const text = answer?.type === 'section' ? (answer.text?.text ?? '') : '';
    const shown = text.slice('*Answer shown*\n'.length);
    expect(shown.endsWith('…')).toBe(true);
    expect(shown.length).toBeLessThanOrEqual(700);
    expect(shown.length).toBeGreaterThan(300);
  });

  it('stays valid with a 256-character docId, a huge question and many escapes', () => {
    const docId = `${'&<>'.repeat(85)}x`;
    const message = renderReviewCard(
      card({
        id: `doc:${docId}`,
        docId,
        entryTitle: '&'.repeat(5000),
        question: '<'.repeat(5000),
        count: 123_456,
        latestAsker: { userId: 'U1', displayName: '&'.repeat(500) },
        reasons: [1, 2, 3].map(() => ({ reason: 'other' as const, text: '>'.repeat(500), at: AT })),
      }),
      { locale: 'zh-CN', showAsker: true },
    );
    expectMessageWithinLimits(message);
    const [edit] = buttonsOf(message.blocks);
    expect(decodeReviewCardValue(edit?.value)).toEqual({ cardId: `doc:${docId}`, docId });
  });

  it('shows the card in Chinese', () => {
    const message = renderReviewCard(card(), { locale: 'zh-CN', showAsker: true });
    expect(textsOf(message.blocks)).toContain('👎 回答被点踩 · 2 次');
    expect(buttonsOf(message.blocks).map((button) => button.text.text)).toEqual(['编辑条目', '忽略']);
  });
});

describe('an unanswered question asked several ways', () => {
  it('shows the wording it was opened with and lists the others, escaped', () => {
    const unanswered = card({
      id: 'q:1',
      kind: 'unanswered',
      docId: undefined,
      entryTitle: undefined,
      answerHtml: undefined,
      question: 'Can I bring my llama to the office?',
      otherWordings: ['can i bring my LLAMA to the office, …!!', 'llama <office>?'],
      count: 3,
    });
    const texts = textsOf(renderReviewCard(unanswered, { locale: 'en', showAsker: true }).blocks);
    expect(texts).toContain('*Question asked*\n>Can I bring my llama to the office?');
    expect(texts).toContain(
      '*Also asked as*\n• can i bring my LLAMA to the office, …!!\n• llama &lt;office&gt;?',
    );
  });
});

describe('person-answer and card modals', () => {
  it('an answered card says who answered and when, with no buttons', () => {
    const message = renderReviewCard(
      card({ kind: 'unanswered', docId: undefined, status: 'answered', handledBy: 'U5', handledAt: AT }),
      { locale: 'zh-CN', showAsker: true },
    );
    expect(buttonsOf(message.blocks)).toEqual([]);
    expect(textsOf(message.blocks)).toContain(`💬 <@U5> 已于 <!date^${Math.floor(AT / 1000)}^`);
  });
});
