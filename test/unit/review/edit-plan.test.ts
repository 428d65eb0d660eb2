import { describe, expect, it } from 'vitest';
import { htmlToMarkup } from '../../../src/answer-html/editor-markdown.js';
import { planEdit, textHash } from '../../../src/review/edit-plan.js';
import type { EditForm } from '../../../src/review/types.js';

const EMPTY: EditForm = {
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

const TITLE = 'How do I reset my password?';
const ANSWER_HTML = '<p>Open <a href="https://id.example.com">the portal</a> and click <b>Reset</b>.</p>';
const MARKUP = htmlToMarkup(ANSWER_HTML);
const PREFILL = {
  docId: 'doc-password-reset',
  titleHash: textHash(TITLE),
  answerHash: textHash(MARKUP),
  robotFlag: 1 as const,
};
const FILLED: EditForm = { ...EMPTY, questionTitle: TITLE, answerMarkup: MARKUP };

describe('planEdit', () => {
  it('sends only what changed, with docId and robotFlag', () => {
    const plan = planEdit({ ...FILLED, questionTitle: 'How can I reset my password?' }, PREFILL);
    expect(plan).toEqual({
      kind: 'send',
      edit: { docId: 'doc-password-reset', robotFlag: 1, questionTitle: 'How can I reset my password?' },
      changedFields: ['questionTitle'],
    });
  });

  it('sends a changed answer as HTML that keeps its link and bold', () => {
    const plan = planEdit({ ...FILLED, answerMarkup: MARKUP.replace('click', 'press') }, PREFILL);
    expect(plan.kind).toBe('send');
    if (plan.kind !== 'send') return;
    expect(plan.changedFields).toEqual(['answerDesc']);
    expect(plan.edit.answerDesc).toContain('press');
    expect(plan.edit.answerDesc).toContain('href="https://id.example.com"');
    expect(plan.edit.answerDesc).toMatch(/<(strong|b)>Reset<\/(strong|b)>/);
  });

  it('refuses an unchanged form, and says so', () => {
    expect(planEdit(FILLED, PREFILL)).toEqual({ kind: 'invalid', problems: { form: 'nothing_changed' } });
  });

  it('refuses a cleared question or answer inline, and sends nothing', () => {
    expect(planEdit({ ...FILLED, questionTitle: '   ', answerMarkup: undefined }, PREFILL)).toEqual({
      kind: 'invalid',
      problems: { questionTitle: 'empty_question', answerDesc: 'empty_answer' },
    });
  });

  it('leaves fields it never knew alone when they stay empty', () => {
    const unknown = { docId: 'd', titleHash: undefined, answerHash: undefined, robotFlag: 0 as const };
    expect(planEdit({ ...EMPTY, usedFlag: 1 }, unknown)).toEqual({
      kind: 'send',
      edit: { docId: 'd', robotFlag: 0, usedFlag: 1 },
      changedFields: ['usedFlag'],
    });
  });

  it('sends match mode, state and the chosen knowledge base when chosen', () => {
    const plan = planEdit({ ...FILLED, matchFlag: 2, usedFlag: 0, robotFlag: 0 }, PREFILL);
    expect(plan).toMatchObject({ kind: 'send', edit: { robotFlag: 0, matchFlag: 2, usedFlag: 0 } });
  });

  it('sends a period as auditStatus 2 with yyyy-MM-dd HH:mm:ss times', () => {
    const plan = planEdit(
      {
        ...FILLED,
        validity: 'period',
        effectDate: '2026-12-01',
        effectClock: '09:30',
        invalidDate: '2027-01-31',
      },
      PREFILL,
    );
    expect(plan).toMatchObject({
      kind: 'send',
      edit: { auditStatus: 2, effectTime: '2026-12-01 09:30:00', invalidTime: '2027-01-31 23:59:59' },
    });
  });

  it('sends permanent validity as auditStatus 1 without times', () => {
    const plan = planEdit({ ...FILLED, validity: 'permanent', effectDate: undefined }, PREFILL);
    expect(plan).toMatchObject({ kind: 'send', edit: { auditStatus: 1 } });
    if (plan.kind === 'send') expect(plan.edit).not.toHaveProperty('effectTime');
  });

  it('refuses a period that ends before it starts, or lacks an end, or names no real day', () => {
    expect(
      planEdit(
        { ...FILLED, validity: 'period', effectDate: '2026-12-01', invalidDate: '2026-11-30' },
        PREFILL,
      ),
    ).toEqual({ kind: 'invalid', problems: { invalidTime: 'period_ends_before_start' } });
    expect(planEdit({ ...FILLED, validity: 'period', effectDate: '2026-12-01' }, PREFILL)).toEqual({
      kind: 'invalid',
      problems: { invalidTime: 'period_incomplete' },
    });
    expect(
      planEdit(
        { ...FILLED, validity: 'period', effectDate: '2026-02-30', invalidDate: '2026-03-01' },
        PREFILL,
      ),
    ).toEqual({ kind: 'invalid', problems: { effectTime: 'period_not_a_date' } });
  });

  it('takes dates without a chosen validity as a period', () => {
    const plan = planEdit({ ...FILLED, effectDate: '2026-12-01', invalidDate: '2026-12-02' }, PREFILL);
    expect(plan).toMatchObject({ kind: 'send', edit: { auditStatus: 2 } });
  });

  it('refuses an answer longer than the editor holds rather than cutting it', () => {
    const plan = planEdit({ ...FILLED, answerMarkup: 'x'.repeat(3001) }, PREFILL);
    expect(plan).toEqual({ kind: 'invalid', problems: { answerDesc: 'answer_too_long' } });
  });
});
