// Which knowledge base answers which robotFlag, and which one an edit of a docId lands in.
import { describe, expect, it } from 'vitest';
import { itDeskEntries } from '../../../src/simulator/it-desk.js';
import { KnowledgeBase, POPULAR_DOC_IDS, seedEntries } from '../../../src/simulator/knowledge-base.js';
import { type RobotDesk, Robots } from '../../../src/simulator/robots.js';

function desk(entries = seedEntries()): RobotDesk {
  return {
    knowledgeBase: new KnowledgeBase(entries),
    popular: POPULAR_DOC_IDS,
    guide: { en: 'hi', zh: '你好' },
  };
}

describe('Robots', () => {
  const robots = new Robots();

  it('answers robot 1 and a question naming no robot from the helpdesk, robot 2 from the IT desk', () => {
    expect(robots.desk(undefined)).toBe(robots.desk(1));
    expect(robots.desk(1)?.knowledgeBase.get('doc-password-reset')).toBeDefined();
    expect(robots.desk(1)?.knowledgeBase.get('doc-it-password')).toBeUndefined();
    expect(robots.desk(2)?.knowledgeBase.get('doc-it-password')).toBeDefined();
    expect(robots.desk(2)?.knowledgeBase.get('doc-password-reset')).toBeUndefined();
  });

  it.each([0, 3, 7, 2 ** 31 - 1])('has no robot %i', (robotFlag) => {
    expect(robots.desk(robotFlag)).toBeUndefined();
  });

  it('finds the knowledge base holding a docId, whichever robot owns it', () => {
    expect(robots.holding('doc-it-wifi')).toBe(robots.desk(2)?.knowledgeBase);
    expect(robots.holding('doc-wifi')).toBe(robots.desk(1)?.knowledgeBase);
    expect(robots.holding('doc-nope')).toBeUndefined();
  });

  it('counts every robot’s entries', () => {
    expect(robots.entryCount()).toBe(seedEntries().length + itDeskEntries().length);
  });

  it('refuses one docId in two robots: an edit names only the docId', () => {
    expect(
      () =>
        new Robots(
          new Map([
            [1, desk()],
            [2, desk()],
          ]),
        ),
    ).toThrow(/doc-vpn-connect is in robot 1 and robot 2/);
  });

  it('gives each instance its own knowledge bases', () => {
    const other = new Robots();
    other.holding('doc-it-vpn')?.update('doc-it-vpn', { usedFlag: 1 });
    expect(robots.holding('doc-it-vpn')?.get('doc-it-vpn')?.usedFlag).toBe(0);
  });
});
