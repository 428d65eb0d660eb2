import type { types } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '../../../../src/conversation/locale.js';
import type { EditForm, EditProblem } from '../../../../src/review/types.js';
import { problemText, renderEditModal } from '../../../../src/slack/review/edit-modal.js';
import { EDIT_BLOCK_IDS, readEditMetadata } from '../../../../src/slack/review/forms.js';
import { VIEW_EDIT_ENTRY } from '../../../../src/slack/review/ids.js';
import {
  elementOf,
  expectModalWithinLimits,
  initialOf,
  inputOf,
  textsOf,
} from '../../../support/block-kit.js';
import { AT, emptyForm, modalInput, sha256 } from '../../../support/review-views.js';

type KnownBlock = types.KnownBlock;

describe('renderEditModal', () => {
  it('is prefilled from the snapshot, says so with the date, and preselects nothing unknown', () => {
    const view = renderEditModal(modalInput());
    expectModalWithinLimits(view);
    expect(view.callback_id).toBe(VIEW_EDIT_ENTRY);
    const texts = textsOf(view.blocks as KnownBlock[]);
    expect(texts).toContain('`d-42`');
    expect(texts).toContain('The platform has no call that reads an entry');
    // Slack's date token, its fallback in the operator's own zone (Paris, UTC+1 in March).
    expect(texts).toContain(
      'last saw it (<!date^1741080600^{date_short_pretty} {time}|4 Mar 2025, 10:30>). Fields',
    );
    expect(texts).not.toContain('2025-03-04');
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
    for (const block of view.blocks as KnownBlock[]) {
      const prefilledText =
        block.block_id === EDIT_BLOCK_IDS.questionTitle || block.block_id === EDIT_BLOCK_IDS.answerDesc;
      if (block.type === 'input') expect(block.optional).toBe(!prefilledText);
    }
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
      modalInput({
        values: emptyForm,
        banner: { kind: 'failed', text: 'The standard question cannot be empty.' },
      }),
    );
    expect(initialOf(cleared, EDIT_BLOCK_IDS.questionTitle)).toBeUndefined();
    expect(initialOf(cleared, EDIT_BLOCK_IDS.answerDesc)).toBeUndefined();
  });

  it('marks optional only the fields that may stay empty: Slack adds "(optional)" to their labels', () => {
    const optionalOf = (view: types.View) =>
      new Map(
        (view.blocks as KnownBlock[])
          .filter((block): block is types.InputBlock => block.type === 'input')
          .map((block) => [block.block_id, block.optional === true]),
      );
    // Known texts may not be cleared: not optional; settings left unchosen stay as they are: optional.
    const known = optionalOf(renderEditModal(modalInput()));
    expect(known.get(EDIT_BLOCK_IDS.questionTitle)).toBe(false);
    expect(known.get(EDIT_BLOCK_IDS.answerDesc)).toBe(false);
    for (const id of [EDIT_BLOCK_IDS.matchFlag, EDIT_BLOCK_IDS.validity, EDIT_BLOCK_IDS.effectDate]) {
      expect(known.get(id)).toBe(true);
    }
    // Never seen: nothing to keep, so leaving them empty changes nothing.
    const unknown = optionalOf(
      renderEditModal(
        modalInput({
          prefill: {
            questionTitle: undefined,
            answerMarkup: undefined,
            answerLength: undefined,
            seenAt: undefined,
            unsupportedMarkup: [],
          },
        }),
      ),
    );
    expect(unknown.get(EDIT_BLOCK_IDS.questionTitle)).toBe(true);
    expect(unknown.get(EDIT_BLOCK_IDS.answerDesc)).toBe(true);
    // No label says "optional" in words: Slack does, where it applies.
    const labels = (renderEditModal(modalInput()).blocks as KnownBlock[]).flatMap((block) =>
      block.type === 'input' ? [block.label.text] : [],
    );
    expect(labels.join('\n')).not.toMatch(/optional/i);
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
