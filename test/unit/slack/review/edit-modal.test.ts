import { createHash } from 'node:crypto';
import type { types } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '../../../../src/conversation/locale.js';
import type { EditForm, EditProblem, ReviewCard } from '../../../../src/review/types.js';
import {
  decodeReviewCardValue,
  decodeTryAgainValue,
  encodeReviewCardValue,
} from '../../../../src/slack/kit/button-values.js';
import {
  BLOCKS_PER_MESSAGE_MAX,
  BUTTON_TEXT_MAX,
  BUTTON_VALUE_MAX,
  FALLBACK_TEXT_MAX,
  SECTION_TEXT_MAX,
  SERIALIZED_BLOCKS_BUDGET,
} from '../../../../src/slack/kit/limits.js';
import {
  ACTION_ASK_AGAIN,
  ACTION_REVIEW_DISMISS,
  ACTION_REVIEW_EDIT,
  VIEW_DISLIKE_REASON,
  VIEW_EDIT_ENTRY,
} from '../../../../src/slack/review/ids.js';
import {
  EDIT_BLOCK_IDS,
  type EditModalInput,
  encodeEditMetadata,
  problemText,
  REASON_BLOCK_ID,
  readEditForm,
  readEditMetadata,
  readReasonForm,
  readReasonMetadata,
  renderAnswerUpdatedNotice,
  renderEditModal,
  renderEditSaved,
  renderReasonModal,
  renderReviewCard,
} from '../../../../src/slack/review/edit-modal.js';

type KnownBlock = types.KnownBlock;
type ModalView = types.ModalView;
type InputBlock = types.InputBlock;
type Button = types.Button;

const AT = Date.UTC(2025, 2, 4, 9, 30, 0);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function card(overrides: Partial<ReviewCard> = {}): ReviewCard {
  return {
    id: 'doc:d-42',
    kind: 'disliked',
    docId: 'd-42',
    entryTitle: 'How do I reset my password?',
    answerHtml: '<p>Go to <b>Settings</b> and click <a href="https://example.com/reset">Reset</a>.</p>',
    answerType: 1,
    question: 'how to reset password',
    count: 2,
    reasons: [{ reason: 'out_of_date', text: 'The menu moved', at: AT }],
    latestAsker: { userId: 'U777', displayName: 'Ann Lee' },
    latestLink: 'https://acme.slack.com/archives/C1/p123',
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

function modalInput(overrides: Partial<EditModalInput> = {}): EditModalInput {
  return {
    locale: 'en',
    docId: 'd-42',
    cardId: 'doc:d-42',
    robotFlag: undefined,
    prefill: {
      questionTitle: 'How do I reset my password?',
      answerMarkup: 'Go to **Settings** and click [Reset](https://example.com/reset).',
      answerLength: undefined,
      seenAt: AT,
      unsupportedMarkup: [],
    },
    ...overrides,
  };
}

const emptyForm: EditForm = {
  questionTitle: undefined,
  answerMarkup: undefined,
  matchFlag: undefined,
  usedFlag: undefined,
  robotFlag: undefined,
  validity: undefined,
  effectDate: undefined,
  effectClock: undefined,
  invalidDate: undefined,
  invalidClock: undefined,
};

// ---------------------------------------------------------------- limit checks

interface Text {
  type: string;
  text: string;
}

function expectText(value: unknown, max: number): void {
  const text = value as Text;
  expect(typeof text.text).toBe('string');
  expect(text.text.length).toBeGreaterThan(0);
  expect(text.text.length).toBeLessThanOrEqual(max);
}

function expectButton(button: Button): void {
  expectText(button.text, BUTTON_TEXT_MAX);
  expect(button.value?.length ?? 0).toBeLessThanOrEqual(BUTTON_VALUE_MAX);
  expect(button.action_id?.length ?? 0).toBeLessThanOrEqual(255);
  if (button.confirm) {
    expectText(button.confirm.title, 100);
    expectText(button.confirm.text, 300);
    expectText(button.confirm.confirm, 30);
    expectText(button.confirm.deny, 30);
  }
}

/** Every limit Slack enforces on the blocks these builders use. */
function expectBlocksWithinLimits(blocks: KnownBlock[]): void {
  const blockIds = blocks.flatMap((block) => (block.block_id ? [block.block_id] : []));
  expect(new Set(blockIds).size).toBe(blockIds.length);
  for (const id of blockIds) expect(id.length).toBeLessThanOrEqual(255);
  for (const block of blocks) {
    switch (block.type) {
      case 'header':
        expectText(block.text, 150);
        break;
      case 'section':
        if (block.text) expectText(block.text, SECTION_TEXT_MAX);
        expect(block.fields?.length ?? 0).toBeLessThanOrEqual(10);
        for (const field of block.fields ?? []) expectText(field, 2000);
        if (block.accessory?.type === 'button') expectButton(block.accessory);
        break;
      case 'context':
        expect(block.elements.length).toBeLessThanOrEqual(10);
        for (const element of block.elements) expectText(element, SECTION_TEXT_MAX);
        break;
      case 'actions':
        expect(block.elements.length).toBeLessThanOrEqual(25);
        for (const element of block.elements) if (element.type === 'button') expectButton(element);
        break;
      case 'input':
        expectInput(block);
        break;
      default:
        throw new Error(`unexpected block ${block.type}`);
    }
  }
}

function expectInput(block: InputBlock): void {
  expectText(block.label, 2000);
  if (block.hint) expectText(block.hint, 2000);
  const element = block.element;
  expect(element.action_id?.length ?? 0).toBeLessThanOrEqual(255);
  switch (element.type) {
    case 'plain_text_input':
      expect(element.max_length ?? 3000).toBeLessThanOrEqual(3000);
      if (element.initial_value !== undefined) {
        expect(element.initial_value.length).toBeLessThanOrEqual(element.max_length ?? 3000);
      }
      break;
    case 'static_select':
    case 'radio_buttons': {
      const options = element.options ?? [];
      expect(options.length).toBeLessThanOrEqual(element.type === 'radio_buttons' ? 10 : 100);
      for (const option of options) {
        expectText(option.text, 75);
        expect(option.value?.length ?? 0).toBeLessThanOrEqual(150);
      }
      if (element.initial_option) expect(options).toContainEqual(element.initial_option);
      if (element.type === 'static_select' && element.placeholder) expectText(element.placeholder, 150);
      break;
    }
    case 'datepicker':
      if (element.initial_date !== undefined) expect(element.initial_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      break;
    case 'timepicker':
      if (element.initial_time !== undefined) expect(element.initial_time).toMatch(/^\d{2}:\d{2}$/);
      break;
    default:
      throw new Error(`unexpected input ${element.type}`);
  }
}

function expectMessageWithinLimits(message: { text: string; blocks: KnownBlock[] }): void {
  expect(message.text.trim()).not.toBe('');
  expect(message.text.length).toBeLessThanOrEqual(FALLBACK_TEXT_MAX);
  expect(message.blocks.length).toBeGreaterThan(0);
  expect(message.blocks.length).toBeLessThanOrEqual(BLOCKS_PER_MESSAGE_MAX);
  expect(JSON.stringify(message.blocks).length).toBeLessThanOrEqual(SERIALIZED_BLOCKS_BUDGET);
  expectBlocksWithinLimits(message.blocks);
}

function expectModalWithinLimits(view: ModalView): void {
  expectText(view.title, 24);
  if (view.submit) expectText(view.submit, 24);
  if (view.close) expectText(view.close, 24);
  expect(view.blocks.length).toBeLessThanOrEqual(100);
  expect(view.private_metadata?.length ?? 0).toBeLessThanOrEqual(3000);
  expectBlocksWithinLimits(view.blocks as KnownBlock[]);
}

// ---------------------------------------------------------------- helpers to read what was built

const json = (value: unknown) => JSON.stringify(value);

function buttonsOf(blocks: KnownBlock[]): Button[] {
  return blocks.flatMap((block) =>
    block.type === 'actions'
      ? block.elements.filter((element): element is Button => element.type === 'button')
      : [],
  );
}

function textsOf(blocks: KnownBlock[]): string {
  return blocks
    .flatMap((block) => {
      if (block.type === 'section')
        return [block.text?.text ?? '', ...(block.fields ?? []).map((f) => f.text)];
      if (block.type === 'context')
        return block.elements.map((element) => ('text' in element ? element.text : ''));
      if (block.type === 'header') return [block.text.text];
      return [];
    })
    .join('\n');
}

function inputOf(view: ModalView, blockId: string): InputBlock | undefined {
  return (view.blocks as KnownBlock[]).find(
    (block): block is InputBlock => block.type === 'input' && block.block_id === blockId,
  );
}

function elementOf(view: ModalView, blockId: string): InputBlock['element'] {
  const input = inputOf(view, blockId);
  if (!input) throw new Error(`no input ${blockId}`);
  return input.element;
}

function initialOf(view: ModalView, blockId: string): unknown {
  const element = elementOf(view, blockId);
  switch (element.type) {
    case 'plain_text_input':
      return element.initial_value;
    case 'static_select':
      return element.initial_option?.value;
    case 'datepicker':
      return element.initial_date;
    case 'timepicker':
      return element.initial_time;
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------- cards

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
    expect(texts).toContain('*Answer type*\n1');
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

  it('says "once" without a count, and asks for an unanswered question without Edit entry', () => {
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
    expect(buttons.map((button) => button.action_id)).toEqual([ACTION_REVIEW_DISMISS]);
    expect(decodeReviewCardValue(buttons[0]?.value)).toEqual({ cardId: unanswered.id, docId: undefined });
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
      `✅ Fixed by <@U123> <!date^${unix}^{date_short_pretty} {time}|2025-03-04T09:30:00Z>: changed standard question, answer, validity`,
    );
    const zh = renderReviewCard(fixed, { locale: 'zh-CN', showAsker: true });
    expect(textsOf(zh.blocks)).toContain('修改了标准问题、答案、有效期');
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

describe('review card button values', () => {
  it('round-trip and refuse anything else', () => {
    const value = encodeReviewCardValue({ cardId: 'doc:d-1', docId: 'd-1' });
    expect(decodeReviewCardValue(value)).toEqual({ cardId: 'doc:d-1', docId: 'd-1' });
    expect(encodeReviewCardValue({ cardId: 'not-a-card' })).toBeUndefined();
    expect(encodeReviewCardValue({ cardId: `doc:${'x'.repeat(300)}` })).toBeUndefined();
    for (const raw of [undefined, 3, '', '{', '{"v":1}', '{"v":1,"c":"q:XYZ"}', '{"v":2,"c":"q:ab"}']) {
      expect(decodeReviewCardValue(raw)).toBeUndefined();
    }
  });
});

// ---------------------------------------------------------------- the reason modal

describe('renderReasonModal and readReasonForm', () => {
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
    expect(readReasonMetadata(view.private_metadata)).toBe('ctx-1');
  });

  it('fits Slack’s limits in both languages', () => {
    for (const locale of LOCALES) expectModalWithinLimits(renderReasonModal({ contextKey: 'k', locale }));
  });

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

// ---------------------------------------------------------------- the edit modal

describe('renderEditModal', () => {
  it('is prefilled from the snapshot, says so with the date, and preselects nothing unknown', () => {
    const view = renderEditModal(modalInput());
    expectModalWithinLimits(view);
    expect(view.callback_id).toBe(VIEW_EDIT_ENTRY);
    const texts = textsOf(view.blocks as KnownBlock[]);
    expect(texts).toContain('`d-42`');
    expect(texts).toContain('The platform has no call that reads an entry');
    expect(texts).toContain(
      `<!date^${Math.floor(AT / 1000)}^{date_short_pretty} {time}|2025-03-04T09:30:00Z>`,
    );
    expect(initialOf(view, EDIT_BLOCK_IDS.questionTitle)).toBe('How do I reset my password?');
    expect(initialOf(view, EDIT_BLOCK_IDS.answerDesc)).toBe(
      'Go to **Settings** and click [Reset](https://example.com/reset).',
    );
    for (const id of [
      EDIT_BLOCK_IDS.matchFlag,
      EDIT_BLOCK_IDS.usedFlag,
      EDIT_BLOCK_IDS.robotFlag,
      EDIT_BLOCK_IDS.validity,
      EDIT_BLOCK_IDS.effectDate,
      EDIT_BLOCK_IDS.effectClock,
      EDIT_BLOCK_IDS.invalidDate,
      EDIT_BLOCK_IDS.invalidClock,
    ]) {
      expect(initialOf(view, id)).toBeUndefined();
    }
    for (const block of view.blocks as KnownBlock[])
      if (block.type === 'input') expect(block.optional).toBe(true);
    expect(inputOf(view, EDIT_BLOCK_IDS.answerDesc)?.label.text).toContain('**bold**');
    const answer = elementOf(view, EDIT_BLOCK_IDS.answerDesc);
    expect(answer.type === 'plain_text_input' && answer.multiline && answer.max_length).toBe(3000);
    expect(elementOf(view, EDIT_BLOCK_IDS.effectDate).type).toBe('datepicker');
    expect(elementOf(view, EDIT_BLOCK_IDS.effectClock).type).toBe('timepicker');
  });

  it('preselects the knowledge base when it is known', () => {
    expect(initialOf(renderEditModal(modalInput({ robotFlag: 1 })), EDIT_BLOCK_IDS.robotFlag)).toBe('robot');
    expect(initialOf(renderEditModal(modalInput({ robotFlag: 0 })), EDIT_BLOCK_IDS.robotFlag)).toBe('public');
  });

  it('carries the entry, the card and hashes of the prefilled texts, trimmed as the planner hashes them', () => {
    const view = renderEditModal(
      modalInput({
        prefill: {
          questionTitle: '  Title  ',
          answerMarkup: '\nBody\n',
          answerLength: undefined,
          seenAt: AT,
          unsupportedMarkup: [],
        },
      }),
    );
    expect(initialOf(view, EDIT_BLOCK_IDS.questionTitle)).toBe('Title');
    expect(readEditMetadata(view.private_metadata)).toEqual({
      v: 1,
      d: 'd-42',
      c: 'doc:d-42',
      t: sha256('Title'),
      a: sha256('Body'),
    });
  });

  it('shows again what the operator typed, with a banner, keeping the hashes of the prefill', () => {
    const values: EditForm = {
      questionTitle: 'New title',
      answerMarkup: 'New **answer**',
      matchFlag: 2,
      usedFlag: 1,
      robotFlag: 0,
      validity: 'period',
      effectDate: '2025-04-01',
      effectClock: '08:00',
      invalidDate: '2025-05-01',
      invalidClock: 'not a time',
    };
    const view = renderEditModal(
      modalInput({
        robotFlag: 1,
        values,
        banner: { kind: 'failed', text: 'The platform refused <it> & said no' },
      }),
    );
    expectModalWithinLimits(view);
    expect(initialOf(view, EDIT_BLOCK_IDS.questionTitle)).toBe('New title');
    expect(initialOf(view, EDIT_BLOCK_IDS.answerDesc)).toBe('New **answer**');
    expect(initialOf(view, EDIT_BLOCK_IDS.matchFlag)).toBe('contains');
    expect(initialOf(view, EDIT_BLOCK_IDS.usedFlag)).toBe('disabled');
    expect(initialOf(view, EDIT_BLOCK_IDS.robotFlag)).toBe('public');
    expect(initialOf(view, EDIT_BLOCK_IDS.validity)).toBe('period');
    expect(initialOf(view, EDIT_BLOCK_IDS.effectDate)).toBe('2025-04-01');
    expect(initialOf(view, EDIT_BLOCK_IDS.effectClock)).toBe('08:00');
    expect(initialOf(view, EDIT_BLOCK_IDS.invalidDate)).toBe('2025-05-01');
    expect(initialOf(view, EDIT_BLOCK_IDS.invalidClock)).toBeUndefined();
    expect(textsOf(view.blocks as KnownBlock[])).toContain('⚠️ The platform refused &lt;it&gt; &amp; said no');
    expect(readEditMetadata(view.private_metadata)?.t).toBe(sha256('How do I reset my password?'));

    // A field the operator cleared stays clear, rather than coming back from the prefill.
    const cleared = renderEditModal(
      modalInput({ values: emptyForm, banner: { kind: 'saving', text: 'Saving…' } }),
    );
    expect(initialOf(cleared, EDIT_BLOCK_IDS.questionTitle)).toBeUndefined();
    expect(textsOf(cleared.blocks as KnownBlock[])).toContain('⏳ Saving…');
  });

  it('replaces an answer too long for the editor with a note, never a cut copy', () => {
    const view = renderEditModal(
      modalInput({
        prefill: {
          questionTitle: 'Title',
          answerMarkup: undefined,
          answerLength: 5234,
          seenAt: AT,
          unsupportedMarkup: [],
        },
      }),
    );
    expectModalWithinLimits(view);
    expect(inputOf(view, EDIT_BLOCK_IDS.answerDesc)).toBeUndefined();
    const texts = textsOf(view.blocks as KnownBlock[]);
    expect(texts).toContain('5,234 characters, over the 3,000');
    expect(texts).toContain("platform's console");
    const metadata = readEditMetadata(view.private_metadata);
    expect(metadata?.a).toBeUndefined();
    expect(metadata?.t).toBe(sha256('Title'));

    // Markup over the limit that came without a length is treated the same way.
    const long = renderEditModal(
      modalInput({
        prefill: {
          questionTitle: undefined,
          answerMarkup: 'x'.repeat(3001),
          answerLength: undefined,
          seenAt: AT,
          unsupportedMarkup: [],
        },
      }),
    );
    expect(inputOf(long, EDIT_BLOCK_IDS.answerDesc)).toBeUndefined();
    expect(readEditMetadata(long.private_metadata)?.a).toBeUndefined();
  });

  it('says the fields are empty when the gateway never saw the entry, and hashes nothing', () => {
    const view = renderEditModal(
      modalInput({
        cardId: undefined,
        prefill: {
          questionTitle: undefined,
          answerMarkup: undefined,
          answerLength: undefined,
          seenAt: undefined,
          unsupportedMarkup: [],
        },
      }),
    );
    expectModalWithinLimits(view);
    expect(textsOf(view.blocks as KnownBlock[])).toContain(
      'the fields are empty, and fields left empty are not changed',
    );
    expect(initialOf(view, EDIT_BLOCK_IDS.questionTitle)).toBeUndefined();
    expect(initialOf(view, EDIT_BLOCK_IDS.answerDesc)).toBeUndefined();
    expect(readEditMetadata(view.private_metadata)).toEqual({ v: 1, d: 'd-42' });
  });

  it('lists the formatting a changed answer would drop, escaped', () => {
    const view = renderEditModal(
      modalInput({
        prefill: { ...modalInput().prefill, unsupportedMarkup: ['table', '<iframe>', 'table'] },
      }),
    );
    expect(textsOf(view.blocks as KnownBlock[])).toContain('(table, &lt;iframe&gt;)');
  });

  it('fits Slack’s limits in both languages, with the longest ids and texts', () => {
    const docId = `${'&'.repeat(200)}${'d'.repeat(56)}`;
    for (const locale of LOCALES) {
      const view = renderEditModal(
        modalInput({
          locale,
          docId,
          cardId: `doc:${docId}`,
          robotFlag: 1,
          prefill: {
            questionTitle: 'q'.repeat(3000),
            answerMarkup: 'a'.repeat(3000),
            answerLength: undefined,
            seenAt: AT,
            unsupportedMarkup: Array.from({ length: 30 }, (_, index) => `<tag${index}>${'&'.repeat(60)}`),
          },
          banner: { kind: 'failed', text: '<'.repeat(3000) },
        }),
      );
      expectModalWithinLimits(view);
      expect(readEditMetadata(view.private_metadata)?.d).toBe(docId);
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

describe('problemText', () => {
  const problems: EditProblem[] = [
    'empty_question',
    'empty_answer',
    'answer_too_long',
    'period_incomplete',
    'period_not_a_date',
    'period_ends_before_start',
    'nothing_changed',
  ];

  it('has a text for every problem in both languages', () => {
    for (const locale of LOCALES satisfies readonly Locale[]) {
      const texts = problems.map((problem) => problemText(locale, problem));
      for (const text of texts) {
        expect(text.trim()).not.toBe('');
        expect(text).not.toMatch(/\{\w+\}/);
      }
      expect(new Set(texts).size).toBe(texts.length);
    }
  });

  it('quotes the limit', () => {
    expect(problemText('en', 'answer_too_long')).toContain('3,000');
    expect(problemText('zh-CN', 'answer_too_long', 2000)).toContain('2,000');
  });
});
