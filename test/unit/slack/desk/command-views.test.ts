import type { types } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { renderAgents } from '../../../../src/slack/desk/command-views.js';
import { SECTION_TEXT_MAX, SERIALIZED_BLOCKS_BUDGET } from '../../../../src/slack/kit/limits.js';

const texts = (blocks: types.KnownBlock[]) => JSON.stringify(blocks);

describe('renderAgents', () => {
  it('cannot ping a channel through a name, nor break out of code through an id', () => {
    const { blocks } = renderAgents('en', {
      kind: 'agents',
      groupId: 'g`x',
      agents: [{ id: 's`1', name: '*Bold* <!channel> & co' }],
    });
    const shown = texts(blocks);
    expect(shown).toContain('&lt;!channel&gt; &amp; co');
    expect(shown).not.toContain('<!channel>');
    expect(shown).toContain("`s'1`");
  });

  it('keeps a very large group within one message, and says how many more there are', () => {
    const agents = Array.from({ length: 3_000 }, (_, index) => ({
      id: `s-${String(index).padStart(5, '0')}`,
      name: `Agent number ${index} with a long family name`,
    }));
    const { blocks } = renderAgents('en', { kind: 'agents', groupId: 'g-big', agents });
    expect(JSON.stringify(blocks).length).toBeLessThanOrEqual(SERIALIZED_BLOCKS_BUDGET);
    expect(blocks.length).toBeLessThanOrEqual(50);
    for (const block of blocks) {
      if (block.type === 'section' && block.text)
        expect(block.text.text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX);
    }
    const more = blocks.at(-1);
    expect(more?.type).toBe('context');
    expect(JSON.stringify(more)).toMatch(/and \d{1,3}(,\d{3})* more/);
  });
});
