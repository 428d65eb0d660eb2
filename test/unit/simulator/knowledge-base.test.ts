import { describe, expect, it } from 'vitest';
import { Faults } from '../../../src/simulator/faults.js';
import { KnowledgeBase, POPULAR_DOC_IDS, seedEntries } from '../../../src/simulator/knowledge-base.js';

describe('seed knowledge base', () => {
  const entries = seedEntries();
  const html = entries.map((entry) => entry.answerDesc).join('\n');

  it('has at least 30 entries in English and Chinese with unique docIds', () => {
    expect(entries.length).toBeGreaterThanOrEqual(30);
    expect(new Set(entries.map((entry) => entry.docId)).size).toBe(entries.length);
    expect(entries.some((entry) => entry.language === 'zh')).toBe(true);
    expect(entries.some((entry) => entry.language === 'en')).toBe(true);
  });

  it('answers carry the HTML a renderer must handle', () => {
    expect(html).toMatch(/<p>/);
    expect(html).toMatch(/<a href="https:\/\//);
    expect(html).toMatch(/<img src="https:\/\//);
    expect(html).toMatch(/<br>/);
    expect(html).toMatch(/<strong>/);
    expect(html).toMatch(/<b>注意：<\/b>请/);
    expect(html).toMatch(/\n/);
    expect(html).toMatch(/[^"]https:\/\/[a-z.]+\/[a-z-]+/);
  });

  it('has one answer over 5,000 characters and one entry with at least 8 related entries', () => {
    expect(entries.filter((entry) => entry.answerDesc.length > 5000).map((entry) => entry.docId)).toEqual([
      'doc-travel-policy',
    ]);
    expect(entries.some((entry) => entry.related.length >= 8)).toBe(true);
  });

  it('refers only to entries that exist', () => {
    const ids = new Set(entries.map((entry) => entry.docId));
    for (const entry of entries)
      for (const related of entry.related) expect(ids.has(related), related).toBe(true);
    for (const docId of [...POPULAR_DOC_IDS.en, ...POPULAR_DOC_IDS.zh])
      expect(ids.has(docId), docId).toBe(true);
  });

  it('answers only enabled entries inside their validity window', () => {
    const knowledgeBase = new KnowledgeBase(seedEntries());
    const now = Date.parse('2026-03-15T10:00:00Z');
    expect(knowledgeBase.answerable('doc-wifi', now)).toBeDefined();
    expect(knowledgeBase.answerable('doc-old-vpn-client', now)).toBeUndefined();
    expect(knowledgeBase.answerable('doc-open-enrollment-2020', now)).toBeUndefined();
    expect(knowledgeBase.answerable('doc-zh-spring-festival-2099', now)).toBeUndefined();
    expect(
      knowledgeBase.answerable('doc-zh-spring-festival-2099', Date.parse('2099-06-01T00:00:00Z')),
    ).toBeDefined();
  });
});

describe('Faults', () => {
  it('the last fault set wins and a used-up fault clears itself', () => {
    const faults = new Faults();
    faults.set({ kind: 'http500' });
    faults.set({ kind: 'drop', times: 1 });
    expect(faults.take('chat_user_robot_ask')?.kind).toBe('drop');
    expect(faults.take('chat_user_robot_ask')).toBeUndefined();
  });
});
