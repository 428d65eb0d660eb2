// The platform files a rating under the knowledge-base entry it names: docName is the entry's title
// (the robot's matched question), never the words the user happened to type.
import { describe, expect, it } from 'vitest';
import {
  askByMention,
  buttonsOf,
  clickButton,
  textOf,
  useGatewayHarness,
} from '../../support/gateway-harness.js';

describe('rating an answer to a paraphrased question', () => {
  const harness = useGatewayHarness();

  it.each([
    [
      'English',
      'I forgot my password and cannot log in',
      'How do I reset my password?',
      'doc-password-reset',
    ],
    ['Chinese', '密码忘了怎么重置', '忘记密码怎么办？', 'doc-zh-password'],
  ])('%s: sends the matched entry’s title as docName', async (_language, paraphrase, title, docId) => {
    const h = harness();
    const asksBefore = h.robotAsks().length;
    const feedbacksBefore = h.feedbacks().length;
    const { answer, threadTs } = await askByMention(h, paraphrase);
    expect(h.robotAsks().slice(asksBefore)).toMatchObject([{ question: paraphrase }]);

    const rateUp = buttonsOf(answer).find((button) => button.actionId === 'rate_up');
    if (!rateUp) throw new Error(`no rating button on ${JSON.stringify(answer.body.blocks)}`);
    expect((await h.click(clickButton(answer, rateUp, { threadTs }))).status).toBe(200);
    await h.slack.waitForCall(
      'chat.update',
      (call) => call.body.ts === answer.body.ts && textOf(call).includes('rated this answer'),
      5_000,
    );

    expect(h.feedbacks().slice(feedbacksBefore)).toMatchObject([{ docId, docName: title, status: 1 }]);
    // The platform matched the rating to its answer.
    expect(h.simulator.stats().feedbackRejected ?? 0).toBe(0);
  });
});
