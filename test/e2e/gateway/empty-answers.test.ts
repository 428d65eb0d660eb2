// What counts as an answer is what a reader would see: an image alone is an answer (shown, and
// rateable); markup with nothing visible in it is told as empty and offers no 👍/👎.
import { describe, expect, it } from 'vitest';
import {
  askByMention,
  blocksOf,
  buttonsOf,
  textOf,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import { updateKnowledgeEntry } from '../../support/knowledge-base.js';

describe('answers judged by what they show', () => {
  const harness = useGatewayHarness();

  it('shows an answer that is only an image, with rating buttons and no "empty answer"', async () => {
    const h = harness();
    // This entry has no related questions, so the image is all the message holds.
    await updateKnowledgeEntry(h.simulator, {
      docId: 'doc-zh-meeting-room',
      answerDesc: '<p><img src="https://x.example/a.png" alt="how to"></p>',
    });

    const { answer } = await askByMention(h, '如何预订会议室？');
    expect(blocksOf(answer)).toContainEqual(
      expect.objectContaining({ type: 'image', image_url: 'https://x.example/a.png', alt_text: 'how to' }),
    );
    expect(textOf(answer)).not.toMatch(/empty answer/);
    expect(answer.body.text).toBe('how to');
    expect(buttonsOf(answer).map((button) => button.actionId)).toEqual(['rate_up', 'rate_down']);
  });

  it('tells an answer with nothing visible as empty, keeps the suggestions and offers no rating', async () => {
    const h = harness();
    await updateKnowledgeEntry(h.simulator, {
      docId: 'doc-password-reset',
      answerDesc: '<p></p><br><div> </div>&nbsp;',
    });

    const { answer } = await askByMention(h, 'How do I reset my password?');
    const shown = textOf(answer);
    expect(shown).toContain('The answer service sent an empty answer. Please try asking in other words.');
    const actionIds = buttonsOf(answer).map((button) => button.actionId);
    expect(actionIds.some((id) => id.startsWith('suggestion:'))).toBe(true);
    expect(actionIds).not.toContain('rate_up');
    expect(actionIds).not.toContain('rate_down');
  });
});
