import type { types } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import type { Locale } from '../../../../src/conversation/locale.js';
import type { AnswerReply, FailureReason, Reply } from '../../../../src/conversation/types.js';
import {
  docIdOfAnswerBlocks,
  ESCALATE_BLOCK_ID,
  entryBlockId,
  RATING_BLOCK_ID,
  renderRatedLine,
  renderReply,
  renderThinking,
  replaceBlock,
} from '../../../../src/slack/answers/blocks.js';
import {
  ACTION_ESCALATE,
  ACTION_RATE_DOWN,
  ACTION_RATE_UP,
  ACTION_TRY_AGAIN,
  SUGGESTION_ACTION_PATTERN,
} from '../../../../src/slack/answers/ids.js';
import {
  decodeAnswerValue,
  decodeRatingValue,
  decodeSuggestionValue,
  decodeTryAgainValue,
} from '../../../../src/slack/kit/button-values.js';
import type { RenderedMessage } from '../../../../src/slack/kit/elements.js';
import {
  ACTIONS_ELEMENTS_MAX,
  BLOCKS_PER_MESSAGE_MAX,
  BUTTON_TEXT_MAX,
  BUTTON_VALUE_MAX,
  FALLBACK_TEXT_MAX,
  SECTION_TEXT_MAX,
  SERIALIZED_BLOCKS_BUDGET,
} from '../../../../src/slack/kit/limits.js';
import { ACTION_DISLIKE_REASON } from '../../../../src/slack/review/ids.js';

type ActionsBlock = types.ActionsBlock;
type Button = types.Button;
type KnownBlock = types.KnownBlock;

function answer(overrides: Partial<AnswerReply> = {}): AnswerReply {
  return {
    kind: 'answer',
    contextKey: 'ctx-1',
    answerHtml: '<p>您好，退款请在<b>7天内</b>申请。</p>',
    stripe: '您可能还想问：',
    suggestions: [
      { question: '如何申请退款？', docId: 'd1' },
      { question: '退款多久到账？', docId: 'd2' },
    ],
    rateable: true,
    matched: true,
    clickedBy: undefined,
    demo: false,
    locale: 'zh-CN',
    ...overrides,
  };
}

const isActions = (block: KnownBlock): block is ActionsBlock => block.type === 'actions';

function buttons(messages: RenderedMessage[]): Button[] {
  return messages
    .flatMap((message) => message.blocks)
    .filter(isActions)
    .flatMap((block) => block.elements)
    .filter((element): element is Button => element.type === 'button');
}

function sectionTexts(message: RenderedMessage): string[] {
  return message.blocks.flatMap((block) => (block.type === 'section' && block.text ? [block.text.text] : []));
}

/** Every limit Slack enforces, checked on every message. */
function expectWithinLimits(messages: RenderedMessage[]) {
  for (const message of messages) {
    expect(message.text.trim()).not.toBe('');
    expect(message.text.length).toBeLessThanOrEqual(FALLBACK_TEXT_MAX);
    expect(message.blocks.length).toBeGreaterThan(0);
    expect(message.blocks.length).toBeLessThanOrEqual(BLOCKS_PER_MESSAGE_MAX);
    expect(JSON.stringify(message.blocks).length).toBeLessThanOrEqual(SERIALIZED_BLOCKS_BUDGET);
    for (const text of sectionTexts(message)) expect(text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX);
    const blockIds = message.blocks.flatMap((block) => (block.block_id ? [block.block_id] : []));
    expect(new Set(blockIds).size).toBe(blockIds.length);
    for (const block of message.blocks.filter(isActions)) {
      expect(block.elements.length).toBeLessThanOrEqual(ACTIONS_ELEMENTS_MAX);
      const actionIds = block.elements.map((element) =>
        'action_id' in element ? element.action_id : undefined,
      );
      expect(new Set(actionIds).size).toBe(actionIds.length);
    }
  }
  for (const button of buttons(messages)) {
    expect(button.text.text.length).toBeLessThanOrEqual(BUTTON_TEXT_MAX);
    expect(button.value?.length ?? 0).toBeLessThanOrEqual(BUTTON_VALUE_MAX);
  }
}

describe('renderReply: answers', () => {
  it('shows the answer, the suggestions as buttons and the rating buttons', () => {
    const messages = renderReply(answer());
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message && sectionTexts(message)).toEqual([
      '您好，退款请在\u200B*7天内*\u200B申请。',
      '您可能还想问：',
    ]);
    expect(buttons(messages).map((button) => button.text.text)).toEqual([
      '如何申请退款？',
      '退款多久到账？',
      '👍 有帮助',
      '👎 没帮助',
    ]);
    expectWithinLimits(messages);
  });

  it('gives suggestion buttons unique action ids and values that decode back to the suggestion', () => {
    const suggestionButtons = buttons(renderReply(answer())).filter((button) =>
      SUGGESTION_ACTION_PATTERN.test(button.action_id ?? ''),
    );
    expect(suggestionButtons.map((button) => button.action_id)).toEqual(['suggestion:0', 'suggestion:1']);
    expect(suggestionButtons.map((button) => decodeSuggestionValue(button.value))).toEqual([
      { v: 1, k: 'ctx-1', d: 'd1', q: '如何申请退款？' },
      { v: 1, k: 'ctx-1', d: 'd2', q: '退款多久到账？' },
    ]);
  });

  it('gives the rating buttons the rating block id and values carrying the context key', () => {
    const [message] = renderReply(answer());
    const rating = message?.blocks.find((block) => block.block_id === RATING_BLOCK_ID);
    expect(rating?.type).toBe('actions');
    const [up, down] = rating && isActions(rating) ? rating.elements : [];
    expect(up && 'action_id' in up ? up.action_id : undefined).toBe(ACTION_RATE_UP);
    expect(down && 'action_id' in down ? down.action_id : undefined).toBe(ACTION_RATE_DOWN);
    expect(up?.type === 'button' ? decodeRatingValue(up.value) : undefined).toEqual({
      v: 1,
      k: 'ctx-1',
      r: 1,
    });
    expect(down?.type === 'button' ? decodeRatingValue(down.value) : undefined).toEqual({
      v: 1,
      k: 'ctx-1',
      r: 2,
    });
  });

  it('shows no rating buttons for an answer that cannot be rated', () => {
    const messages = renderReply(answer({ rateable: false }));
    expect(
      messages.flatMap((message) => message.blocks).some((block) => block.block_id === RATING_BLOCK_ID),
    ).toBe(false);
    expect(buttons(messages).map((button) => button.action_id)).toEqual(['suggestion:0', 'suggestion:1']);
  });

  it('uses the localized header when the stripe is empty, and shows no header without suggestions', () => {
    const [withHeader] = renderReply(answer({ stripe: '', locale: 'en' }));
    expect(withHeader && sectionTexts(withHeader)).toContain('You might also want to ask:');
    const [withoutSuggestions] = renderReply(answer({ suggestions: [], stripe: '您可能还想问：' }));
    expect(withoutSuggestions && sectionTexts(withoutSuggestions)).toEqual([
      '您好，退款请在\u200B*7天内*\u200B申请。',
    ]);
  });

  it('puts "<name> asked: <question>" on top of an answer to a clicked suggestion, escaped', () => {
    const [message] = renderReply(
      answer({
        locale: 'en',
        clickedBy: { displayName: 'Ann <Ops>', question: 'How do I <!channel> refund?' },
      }),
    );
    const first = message?.blocks[0];
    expect(first?.type).toBe('context');
    expect(JSON.stringify(first)).toContain('Ann &lt;Ops&gt; asked: How do I &lt;!channel&gt; refund?');
  });

  it('marks demo answers as demo content', () => {
    const [message] = renderReply(answer({ demo: true, locale: 'en' }));
    expect(JSON.stringify(message?.blocks[0])).toContain("Demo knowledge base — not your company's data");
  });

  it('shows images as image blocks, or as links when asked to', () => {
    const html = '<p>流程如下：</p><img src="https://img.example.com/flow.png" alt="流程图"><p>完成。</p>';
    const [message] = renderReply(answer({ answerHtml: html, suggestions: [], rateable: false }));
    expect(message?.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: '流程如下：' } },
      { type: 'image', image_url: 'https://img.example.com/flow.png', alt_text: '流程图' },
      { type: 'section', text: { type: 'mrkdwn', text: '完成。' } },
    ]);
    const [linked] = renderReply(answer({ answerHtml: html, suggestions: [], rateable: false }), {
      images: 'links',
    });
    expect(linked?.blocks.every((block) => block.type === 'section')).toBe(true);
    expect(JSON.stringify(linked?.blocks)).toContain('<https://img.example.com/flow.png|流程图>');
  });

  it('has a plain fallback text without markers or link syntax', () => {
    const [message] = renderReply(
      answer({ answerHtml: '请<b>注意</b>：见<a href="https://x.example.com/a">帮助</a>。' }),
    );
    expect(message?.text).toBe('请注意：见帮助。');
  });

  it('says so when the robot sent nothing to show', () => {
    const [message] = renderReply(answer({ answerHtml: ' <p></p> ', suggestions: [], locale: 'en' }));
    expect(message && sectionTexts(message)[0]).toMatch(/empty answer/);
    expect(message?.text).toMatch(/empty answer/);
  });

  it('tells an answer of only invisible markup as empty, in both languages, with no rating buttons', () => {
    const answerHtml = '<p></p><br><div> </div>&nbsp;';
    for (const [locale, wording] of [
      ['en', /empty answer/],
      ['zh-CN', /空白回答/],
    ] as const) {
      const [message] = renderReply(answer({ answerHtml, locale }));
      // The suggestions are still offered, under the empty-answer line.
      expect(message && sectionTexts(message)[0]).toMatch(wording);
      expect(message?.text).toMatch(wording);
      expect(buttons(message ? [message] : []).map((button) => button.action_id)).toEqual([
        'suggestion:0',
        'suggestion:1',
      ]);
    }
  });

  it('treats an answer that is only an image as an answer: the image, and rating buttons', () => {
    const answerHtml = '<p><img src="https://x.example/a.png" alt="how to"></p>';
    const [message] = renderReply(answer({ answerHtml, suggestions: [], locale: 'en' }));
    expect(message?.blocks[0]).toEqual({
      type: 'image',
      image_url: 'https://x.example/a.png',
      alt_text: 'how to',
    });
    expect(JSON.stringify(message?.blocks)).not.toMatch(/empty answer/);
    expect(message?.text).toBe('how to');
    expect(buttons(message ? [message] : []).map((button) => button.action_id)).toEqual([
      ACTION_RATE_UP,
      ACTION_RATE_DOWN,
    ]);
    const [linked] = renderReply(answer({ answerHtml, suggestions: [], locale: 'en' }), { images: 'links' });
    expect(linked && sectionTexts(linked)).toEqual(['<https://x.example/a.png|how to>']);
    expect(buttons(linked ? [linked] : []).map((button) => button.action_id)).toEqual([
      ACTION_RATE_UP,
      ACTION_RATE_DOWN,
    ]);
  });

  it('shows emoticon codes as emoji in the answer, the stripe, suggestion labels and the asked line', () => {
    const [message] = renderReply(
      answer({
        answerHtml: '<p>好的[OK]</p>',
        stripe: '猜你想问[疑问]',
        suggestions: [{ question: '怎么报销[捂脸]', docId: 'd1' }],
        clickedBy: { displayName: '王小明', question: '谢谢[玫瑰]' },
      }),
    );
    const shown = JSON.stringify(message?.blocks);
    for (const emoji of ['好的👌', '猜你想问❓', '怎么报销🤦', '谢谢🌹']) expect(shown).toContain(emoji);
    expect(message?.text).toContain('好的👌');
    // The button still asks the question as the robot wrote it.
    const [suggestion] = buttons(message ? [message] : []);
    expect(decodeSuggestionValue(suggestion?.value)).toMatchObject({ q: '怎么报销[捂脸]' });
  });

  describe('limits', () => {
    const longAnswer = Array.from(
      { length: 60 },
      (_, index) =>
        `<p>第${index + 1}段：${'退款规则说明，请仔细阅读并按照流程操作。'.repeat(24)}<a href="https://help.example.com/kb/${index}?a=1&amp;b=2">详情</a></p>`,
    ).join('\n');

    it('splits a 30,000-character answer into several messages, each within every limit', () => {
      expect(longAnswer.length).toBeGreaterThan(30_000);
      const messages = renderReply(answer({ answerHtml: longAnswer }));
      expect(messages.length).toBeGreaterThan(2);
      expectWithinLimits(messages);
      // Nothing is lost: every paragraph and link made it into some message.
      const all = messages.flatMap(sectionTexts).join('\n');
      for (let index = 1; index <= 60; index += 1) expect(all).toContain(`第${index}段`);
      expect(all.match(/<https:\/\/help\.example\.com\/kb\/\d+\?a=1&amp;b=2\|详情>/g)).toHaveLength(60);
    });

    it('puts every button on the last message only, and marks later parts as continued', () => {
      const messages = renderReply(answer({ answerHtml: longAnswer }));
      const last = messages.at(-1);
      for (const message of messages.slice(0, -1)) expect(buttons([message])).toEqual([]);
      expect(last && buttons([last]).length).toBe(4);
      expect(last?.blocks.at(-1)?.block_id).toBe(RATING_BLOCK_ID);
      expect(messages[0]?.text.startsWith('第1段')).toBe(true);
      for (const message of messages.slice(1)) expect(message.text.startsWith('（续）')).toBe(true);
    });

    it('puts 40 suggestions into two actions blocks', () => {
      const suggestions = Array.from({ length: 40 }, (_, index) => ({
        question: `问题 ${index}`,
        docId: `d${index}`,
      }));
      const messages = renderReply(answer({ suggestions }));
      const suggestionBlocks = messages
        .flatMap((message) => message.blocks)
        .filter((block) => block.block_id?.startsWith('suggestions:'));
      expect(suggestionBlocks.map((block) => block.block_id)).toEqual(['suggestions:0', 'suggestions:1']);
      expect(suggestionBlocks.map((block) => (isActions(block) ? block.elements.length : 0))).toEqual([
        25, 15,
      ]);
      expectWithinLimits(messages);
    });

    it('truncates a 200-character suggestion label to 75 characters with an ellipsis', () => {
      const question = '很长的问题'.repeat(40);
      const [label] = buttons(renderReply(answer({ suggestions: [{ question, docId: 'd1' }] }))).map(
        (button) => button.text.text,
      );
      expect(label).toHaveLength(BUTTON_TEXT_MAX);
      expect(label?.endsWith('…')).toBe(true);
      expect(question.startsWith(label?.slice(0, -1) ?? 'x')).toBe(true);
    });

    it('keeps many long suggestions within every limit, splitting messages rather than exceeding', () => {
      const suggestions = Array.from({ length: 60 }, (_, index) => ({
        question: `"${'长'.repeat(400)}" ${index}`,
        docId: `doc-${index}`,
      }));
      const messages = renderReply(answer({ answerHtml: longAnswer, suggestions }));
      expectWithinLimits(messages);
      expect(
        buttons(messages).filter((button) => SUGGESTION_ACTION_PATTERN.test(button.action_id ?? '')),
      ).toHaveLength(60);
    });

    it('keeps a message to 50 blocks when the answer has many images', () => {
      const html = Array.from(
        { length: 70 },
        (_, index) => `<img src="https://img.example.com/${index}.png">`,
      ).join('');
      const messages = renderReply(answer({ answerHtml: html }));
      expect(messages.length).toBeGreaterThan(1);
      expectWithinLimits(messages);
      const images = messages.flatMap((message) => message.blocks).filter((block) => block.type === 'image');
      expect(images).toHaveLength(70);
    });
  });
});

describe('renderReply: "Get a person" where the place names people to call', () => {
  const noMatch = answer({
    answerHtml: 'Sorry, I cannot answer that yet. Try other words, or pick a question below.',
    stripe: 'You may want to ask:',
    suggestions: [{ question: 'How do I reset my password?', docId: 'd1' }],
    rateable: false,
    matched: false,
    locale: 'en',
  });

  it('offers no button unless asked to: a place without people to call shows the answer as before', () => {
    expect(buttons(renderReply(answer())).map((button) => button.action_id)).not.toContain(ACTION_ESCALATE);
    expect(sectionTexts(renderReply(noMatch)[0] ?? { text: '', blocks: [] })).not.toContain(
      'I have no answer to this in the knowledge base. A person can help.',
    );
  });

  it('puts the button last on an answer, plain, with a value carrying the context key', () => {
    const messages = renderReply(answer(), { escalate: true });
    expect(buttons(messages).map((button) => button.text.text)).toEqual([
      '如何申请退款？',
      '退款多久到账？',
      '👍 有帮助',
      '👎 没帮助',
      '找人工',
    ]);
    const last = messages.at(-1)?.blocks.at(-1);
    expect(last?.block_id).toBe(ESCALATE_BLOCK_ID);
    const [escalate] = last && isActions(last) ? last.elements : [];
    expect(escalate).toMatchObject({ type: 'button', action_id: ACTION_ESCALATE });
    expect(escalate && 'style' in escalate ? escalate.style : undefined).toBeUndefined();
    expect(decodeAnswerValue(escalate?.type === 'button' ? escalate.value : undefined)).toBe('ctx-1');
    expectWithinLimits(messages);
  });

  it('says first that there is no answer, with the button before any other, in primary style', () => {
    const messages = renderReply(noMatch, { escalate: true });
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message?.blocks[0]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: 'I have no answer to this in the knowledge base. A person can help.' },
    });
    expect(message?.blocks[1]?.block_id).toBe(ESCALATE_BLOCK_ID);
    const [first, ...rest] = buttons(messages);
    expect(first).toMatchObject({
      action_id: ACTION_ESCALATE,
      style: 'primary',
      text: { text: 'Get a person' },
    });
    expect(rest.map((button) => button.action_id)).toEqual(['suggestion:0']);
    expect(message?.text.startsWith('I have no answer to this')).toBe(true);
    expectWithinLimits(messages);
  });

  it("apologises once: the robot's own apology gives way to the no-answer line", () => {
    const [message] = renderReply(noMatch, { escalate: true });
    const texts = sectionTexts(message ?? { text: '', blocks: [] });
    expect(texts.filter((text) => /sorry|no answer/i.test(text))).toEqual([
      'I have no answer to this in the knowledge base. A person can help.',
    ]);
    expect(message?.text).not.toContain('Sorry');
  });

  it("says all of it in the reader's language: the lead-in and the no-answer line, whatever the robot wrote", () => {
    const [message] = renderReply({ ...noMatch, locale: 'zh-CN' }, { escalate: true });
    const texts = sectionTexts(message ?? { text: '', blocks: [] });
    expect(texts).toEqual(['知识库里没有这个问题的答案，可以找人工帮忙。', '你可能还想问：']);
  });

  it('keeps a long answer with many suggestions within every limit, the button on the last message', () => {
    const html = Array.from({ length: 60 }, (_, index) => `<p>${`Paragraph ${index}. `.repeat(60)}</p>`).join(
      '',
    );
    const suggestions = Array.from({ length: 60 }, (_, index) => ({
      question: `"${'long '.repeat(80)}" ${index}`,
      docId: `doc-${index}`,
    }));
    const messages = renderReply(answer({ answerHtml: html, suggestions, locale: 'en' }), { escalate: true });
    expect(messages.length).toBeGreaterThan(2);
    expectWithinLimits(messages);
    expect(messages.at(-1)?.blocks.at(-1)?.block_id).toBe(ESCALATE_BLOCK_ID);
    expect(buttons(messages).filter((button) => button.action_id === ACTION_ESCALATE)).toHaveLength(1);
  });

  it('offers no button when the context key cannot fit in a button value', () => {
    const messages = renderReply(answer({ contextKey: 'k'.repeat(500) }), { escalate: true });
    expect(buttons(messages).map((button) => button.action_id)).not.toContain(ACTION_ESCALATE);
  });
});

describe("renderReply: the suggestions in the reader's language", () => {
  const both = [
    { question: 'How do I apply for a refund?', docId: 'd1' },
    { question: '如何申请退款？', docId: 'd2' },
    { question: 'How long does a refund take?', docId: 'd3' },
  ];

  it("shows those in the reader's language where the robot offers both", () => {
    expect(buttons(renderReply(answer({ suggestions: both }))).map((button) => button.text.text)).toEqual([
      '如何申请退款？',
      '👍 有帮助',
      '👎 没帮助',
    ]);
    const english = renderReply(
      answer({ suggestions: both, locale: 'en', stripe: 'You may also want to ask:' }),
    );
    expect(
      buttons(english)
        .map((button) => button.text.text)
        .slice(0, 2),
    ).toEqual(['How do I apply for a refund?', 'How long does a refund take?']);
  });

  it("shows them all when none is in the reader's language, under a lead-in in the reader's language", () => {
    const english = both.filter((suggestion) => suggestion.docId !== 'd2');
    const [message] = renderReply(answer({ suggestions: english, stripe: 'You may also want to ask:' }));
    expect(
      buttons([message ?? { text: '', blocks: [] }])
        .map((button) => button.text.text)
        .slice(0, 2),
    ).toEqual(['How do I apply for a refund?', 'How long does a refund take?']);
    expect(sectionTexts(message ?? { text: '', blocks: [] })).toContain('你可能还想问：');
  });
});

describe('renderReply: failures and notices', () => {
  const reasons: FailureReason[] = [
    'refused',
    'unavailable',
    'malformed',
    'timeout',
    'unreachable',
    'too_slow',
    'store_unavailable',
    'internal',
  ];

  it.each(reasons)('explains %s in both languages and offers Try again with the question', (reason) => {
    for (const [locale, label] of [
      ['en', 'Try again'],
      ['zh-CN', '重试'],
    ] as const) {
      const messages = renderReply({
        kind: 'failure',
        reason,
        retry: { question: '怎么退款？', docId: 'd7' },
        locale,
      });
      expect(messages).toHaveLength(1);
      const [message] = messages;
      expect(message?.text).toMatch(locale === 'en' ? /try again/i : /再试|重试/);
      const [button] = buttons(messages);
      expect(button?.action_id).toBe(ACTION_TRY_AGAIN);
      expect(button?.text.text).toBe(label);
      expect(decodeTryAgainValue(button?.value)).toEqual({ v: 1, q: '怎么退款？', d: 'd7' });
      expectWithinLimits(messages);
    }
  });

  it('offers no Try again button when there is no question to ask again', () => {
    const messages = renderReply({
      kind: 'failure',
      reason: 'internal',
      retry: undefined,
      locale: 'en',
    });
    expect(buttons(messages)).toEqual([]);
    expect(messages[0]?.blocks).toHaveLength(1);
  });

  it.each<[Reply, Locale, RegExp]>([
    [{ kind: 'notice', notice: 'help', locale: 'en' }, 'en', /mention/],
    [{ kind: 'notice', notice: 'help', locale: 'zh-CN' }, 'zh-CN', /私信/],
    [{ kind: 'notice', notice: 'question_too_long', limit: 1000, locale: 'en' }, 'en', /1,000/],
    [{ kind: 'notice', notice: 'question_too_long', limit: 1000, locale: 'zh-CN' }, 'zh-CN', /1,000/],
    [{ kind: 'notice', notice: 'question_too_long', locale: 'en' }, 'en', /too long/],
    [{ kind: 'notice', notice: 'context_expired', locale: 'en' }, 'en', /too old/],
    [{ kind: 'notice', notice: 'not_your_answer', locale: 'zh-CN' }, 'zh-CN', /提问的人/],
    [{ kind: 'notice', notice: 'already_rated', locale: 'en' }, 'en', /already/],
  ])('renders notice %# as one section', (reply, _locale, pattern) => {
    const messages = renderReply(reply);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.blocks).toHaveLength(1);
    expect(messages[0] && sectionTexts(messages[0])[0]).toMatch(pattern);
    expect(messages[0]?.text).toMatch(pattern);
    expect(messages[0]?.text).not.toMatch(/^\*/);
  });
});

describe('renderThinking', () => {
  it('shows a placeholder in the asker’s language', () => {
    expect(renderThinking('en').text).toBe('Thinking…');
    expect(renderThinking('zh-CN').text).toBe('正在思考…');
    expect(renderThinking('en').blocks).toHaveLength(1);
  });
});

const replaceRatingButtons = (blocks: unknown, rated: types.KnownBlock) =>
  replaceBlock(blocks, RATING_BLOCK_ID, rated);

describe('renderRatedLine and replaceRatingButtons', () => {
  // Blocks as Slack returns them in a block_actions payload: extra fields, generated block ids.
  const payloadBlocks: unknown[] = [
    {
      type: 'section',
      block_id: 'aB3x',
      text: { type: 'mrkdwn', text: '您好，退款请在7天内申请。', verbatim: false },
    },
    { type: 'section', block_id: 'Zq9', text: { type: 'mrkdwn', text: '您可能还想问：', verbatim: false } },
    {
      type: 'actions',
      block_id: 'suggestions:0',
      elements: [
        {
          type: 'button',
          action_id: 'suggestion:0',
          text: { type: 'plain_text', text: '如何申请退款？', emoji: true },
          value: '{}',
        },
      ],
    },
    {
      type: 'actions',
      block_id: 'rating',
      elements: [
        {
          type: 'button',
          action_id: 'rate_up',
          text: { type: 'plain_text', text: '👍 有帮助', emoji: true },
          value: '{}',
        },
        {
          type: 'button',
          action_id: 'rate_down',
          text: { type: 'plain_text', text: '👎 没帮助', emoji: true },
          value: '{}',
        },
      ],
    },
  ];

  it('says who rated how, mentioning the user', () => {
    expect(JSON.stringify(renderRatedLine('en', 'U123', 1))).toContain(
      '<@U123> rated this answer 👍 helpful',
    );
    expect(JSON.stringify(renderRatedLine('zh-CN', 'U123', 2))).toContain('<@U123>');
    expect(JSON.stringify(renderRatedLine('en', '<!channel>', 2))).not.toContain('<!channel>');
  });

  it('swaps the rating buttons for the rated line and keeps everything else', () => {
    const rated = renderRatedLine('zh-CN', 'U123', 1);
    const blocks = replaceRatingButtons(payloadBlocks, rated);
    expect(blocks).toHaveLength(4);
    expect(blocks.slice(0, 3)).toEqual(payloadBlocks.slice(0, 3));
    expect(blocks[3]).toEqual(rated);
    expect(JSON.stringify(blocks)).not.toContain('rate_up');
  });

  it('is idempotent: a second rating click replaces the rated line, not adds another', () => {
    const once = replaceRatingButtons(payloadBlocks, renderRatedLine('en', 'U1', 1));
    const twice = replaceRatingButtons(once, renderRatedLine('en', 'U1', 1));
    expect(twice).toEqual(once);
  });

  it('drops garbage and never throws', () => {
    const rated = renderRatedLine('en', 'U1', 2);
    expect(
      replaceRatingButtons(
        [null, 3, 'x', [], { type: 7 }, { block_id: 'rating' }, { type: 'divider', block_id: 5 }],
        rated,
      ),
    ).toEqual([rated]);
    expect(replaceRatingButtons('not an array', rated)).toEqual([rated]);
    expect(replaceRatingButtons(undefined, rated)).toEqual([rated]);
    expect(replaceRatingButtons([{ type: 'divider' }], rated)).toEqual([{ type: 'divider' }, rated]);
  });
});

describe('renderRatedLine with a reason button', () => {
  it('after a 👎, offers the asker a "Say what was wrong" button carrying the context key', () => {
    const line = renderRatedLine('en', 'U123', 2, { reasonContextKey: 'ctx-9' });
    expect(line.type).toBe('section');
    expect(line.block_id).toBe(RATING_BLOCK_ID);
    if (line.type !== 'section') return;
    expect(line.text?.text).toBe('<@U123> rated this answer 👎 not helpful');
    const button = line.accessory;
    expect(button?.type).toBe('button');
    if (button?.type !== 'button') return;
    expect(button.action_id).toBe(ACTION_DISLIKE_REASON);
    expect(button.text.text).toBe('Say what was wrong');
    expect(decodeAnswerValue(button.value)).toBe('ctx-9');
    expect(renderRatedLine('zh-CN', 'U123', 2, { reasonContextKey: 'ctx-9' })).toMatchObject({
      accessory: { text: { text: '说说哪里不对' } },
    });
  });

  it('stays a plain line after a 👍, without a key, or with a key no button can carry', () => {
    expect(renderRatedLine('en', 'U1', 1, { reasonContextKey: 'ctx-9' }).type).toBe('context');
    expect(renderRatedLine('en', 'U1', 2).type).toBe('context');
    expect(renderRatedLine('en', 'U1', 2, { reasonContextKey: 'k'.repeat(500) }).type).toBe('context');
  });

  it('is found and replaced by replaceRatingButtons like the buttons it replaced', () => {
    const withReason = renderRatedLine('en', 'U1', 2, { reasonContextKey: 'ctx-9' });
    const blocks = replaceRatingButtons([{ type: 'divider' }, withReason], renderRatedLine('en', 'U1', 2));
    expect(blocks).toEqual([{ type: 'divider' }, renderRatedLine('en', 'U1', 2)]);
  });

  it('rejects garbage reason values', () => {
    for (const raw of [undefined, 1, '', '{}', '{"v":1,"k":""}', '{"v":2,"k":"a"}', 'x'.repeat(3000)]) {
      expect(decodeAnswerValue(raw)).toBeUndefined();
    }
  });
});

describe('answers marked with their knowledge entry', () => {
  it('puts entry:<docId> on the first block of the answer, and finds it again', () => {
    const [message] = renderReply(answer({ docId: 'd-42' }));
    expect(message?.blocks[0]?.block_id).toBe('entry:d-42');
    expect(docIdOfAnswerBlocks(message?.blocks)).toBe('d-42');
    expectWithinLimits(renderReply(answer({ docId: 'd-42' })));
    // Our own block ids are kept: the rating and suggestion listeners find their blocks by them.
    const ids = message?.blocks.map((block) => block.block_id) ?? [];
    expect(ids).toContain(RATING_BLOCK_ID);
    expect(ids).toContain('suggestions:0');
  });

  it('marks every part of a long answer', () => {
    const html = Array.from({ length: 60 }, (_, index) => `<p>${`Paragraph ${index}. `.repeat(30)}</p>`).join(
      '',
    );
    const messages = renderReply(answer({ answerHtml: html, docId: 'd-7' }));
    expect(messages.length).toBeGreaterThan(1);
    expectWithinLimits(messages);
    for (const message of messages) expect(docIdOfAnswerBlocks(message.blocks)).toBe('d-7');
  });

  it('marks the "asked" line on top of a clicked suggestion’s answer', () => {
    const clicked = renderReply(
      answer({ docId: 'd-1', clickedBy: { displayName: 'Ann', question: 'Why?' } }),
    )[0];
    expect(clicked?.blocks[0]?.block_id).toBe('entry:d-1');
  });

  it('leaves the answer unmarked without a docId, or with one too long for a block_id', () => {
    expect(entryBlockId('x'.repeat(249))).toBe(`entry:${'x'.repeat(249)}`);
    expect(entryBlockId('x'.repeat(250))).toBeUndefined();
    expect(entryBlockId('')).toBeUndefined();
    for (const docId of [undefined, 'x'.repeat(250)]) {
      const [message] = renderReply(answer({ docId }));
      expect(docIdOfAnswerBlocks(message?.blocks)).toBeUndefined();
      expect(JSON.stringify(message)).not.toContain('entry:');
    }
  });

  it('never changes the cached blocks of an answer shared with other replies', () => {
    const html = '<p>Shared answer body.</p>';
    renderReply(answer({ answerHtml: html, docId: 'd-1' }));
    const [unmarked] = renderReply(answer({ answerHtml: html, docId: undefined }));
    expect(JSON.stringify(unmarked)).not.toContain('entry:');
    const [other] = renderReply(answer({ answerHtml: html, docId: 'd-2' }));
    expect(docIdOfAnswerBlocks(other?.blocks)).toBe('d-2');
  });

  it('reads the docId from a message as a shortcut payload carries it, and garbage as nothing', () => {
    const payloadBlocks = [
      { type: 'section', block_id: 'entry:doc 42', text: { type: 'mrkdwn', text: 'x', verbatim: false } },
      { type: 'actions', block_id: 'rating', elements: [] },
    ];
    expect(docIdOfAnswerBlocks(payloadBlocks)).toBe('doc 42');
    for (const garbage of [
      undefined,
      null,
      'entry:x',
      {},
      [null, 1, 'entry:x'],
      [{ block_id: 5 }],
      [{ block_id: 'entry:' }],
      [{ block_id: `entry:${'x'.repeat(300)}` }],
      [{ block_id: 'rating' }],
    ]) {
      expect(docIdOfAnswerBlocks(garbage)).toBeUndefined();
    }
  });
});
