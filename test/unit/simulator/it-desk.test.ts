// Robot 2's knowledge base: small, in both languages, and apart from robot 1's.
import { describe, expect, it } from 'vitest';
import { IT_DESK_POPULAR_DOC_IDS, itDeskEntries } from '../../../src/simulator/it-desk.js';
import { KnowledgeBase, seedEntries } from '../../../src/simulator/knowledge-base.js';

describe('IT desk knowledge base', () => {
  const entries = itDeskEntries();

  it('has 6 to 10 entries in English and Chinese', () => {
    expect(entries.length).toBeGreaterThanOrEqual(6);
    expect(entries.length).toBeLessThanOrEqual(10);
    expect(entries.some((entry) => entry.language === 'en')).toBe(true);
    expect(entries.some((entry) => entry.language === 'zh')).toBe(true);
  });

  it('shares no docId, question id or answer id with robot 1, and numbers its own from q-2001', () => {
    const helpdesk = seedEntries();
    const taken = new Set(helpdesk.flatMap((entry) => [entry.docId, entry.questionId, entry.answerId]));
    for (const entry of entries) {
      for (const id of [entry.docId, entry.questionId, entry.answerId]) expect(taken.has(id), id).toBe(false);
      expect(entry.docId).toMatch(/^doc-it-/);
    }
    expect(entries[0]).toMatchObject({ questionId: 'q-2001', answerId: 'a-2001' });
    expect(new Set(entries.map((entry) => entry.docId)).size).toBe(entries.length);
  });

  it('is shaped as robot 1’s entries are: the robot’s own, enabled, permanently valid', () => {
    for (const entry of entries) {
      expect(entry).toMatchObject({ robotFlag: 1, usedFlag: 0, auditStatus: 1, matchFlag: 0 });
      expect(entry.answerDesc).toMatch(/^<p>/);
      expect(entry.questionTypeId).toBe(entry.language === 'zh' ? 'qt-zh-general' : 'qt-en-general');
    }
  });

  it('refers and suggests only its own entries, all answerable', () => {
    const knowledgeBase = new KnowledgeBase(entries);
    const now = Date.parse('2026-03-15T10:00:00Z');
    const referred = [
      ...entries.flatMap((entry) => entry.related),
      ...IT_DESK_POPULAR_DOC_IDS.en,
      ...IT_DESK_POPULAR_DOC_IDS.zh,
    ];
    for (const docId of referred) expect(knowledgeBase.answerable(docId, now), docId).toBeDefined();
    for (const docId of IT_DESK_POPULAR_DOC_IDS.zh)
      expect(knowledgeBase.get(docId)?.language, docId).toBe('zh');
  });

  it('hands out fresh copies, so one simulator’s edits never reach another’s', () => {
    const first = itDeskEntries();
    first[0]?.keywords.push('edited');
    expect(itDeskEntries()[0]?.keywords).not.toContain('edited');
  });
});
