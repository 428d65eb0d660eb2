// Where a question is asked decides how it is asked: with CS_ROBOT_FLAG and CS_SOURCE set, the
// question, a suggestion clicked on its answer and the rating all go to that robot with that source.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  askByMention,
  buttonOf,
  clickButton,
  type GatewayHarness,
  startGatewayHarness,
  textOf,
} from '../../support/gateway-harness.js';
import { IDS } from '../../support/slack-payloads.js';

let harness: GatewayHarness;

beforeAll(async () => {
  harness = await startGatewayHarness({ env: { CS_ROBOT_FLAG: '1', CS_SOURCE: '3' } });
  harness.slack.setUser(IDS.user, { displayName: 'Jane Doe', locale: 'en-US' });
});
afterAll(async () => {
  await harness.close();
});

describe('the placement of a question', () => {
  it('sends the configured robot and source with the question, its suggestion click and its rating', async () => {
    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?');
    await harness.click(clickButton(answer, buttonOf(answer, 'suggestion:0'), { threadTs }));
    await harness.slack.waitForCall('chat.update', (call) => textOf(call).includes('asked:'));
    expect(harness.robotAsks().map((ask) => [ask.robotFlag, ask.source, ask.questionFlag])).toEqual([
      [1, 3, 0],
      [1, 3, 1],
    ]);

    await harness.click(clickButton(answer, buttonOf(answer, 'rate_up'), { threadTs }));
    await harness.slack.waitForCall('chat.update', (call) => textOf(call).includes('rated this answer'));
    expect(harness.feedbacks()).toEqual([expect.objectContaining({ robotFlag: 1, status: 1 })]);
  });
});
