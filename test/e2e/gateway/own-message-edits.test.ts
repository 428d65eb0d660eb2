// The app's own chat.update comes back as message_changed, which Bolt's ignoreSelf lets through
// (the event has no top-level user): it must never be taken for a question.
import { describe, expect, it } from 'vitest';
import { askByMention, textOf, useGatewayHarness } from '../../support/gateway-harness.js';
import { channelMessage, IDS, messageChanged } from '../../support/slack-payloads.js';
import { sleep } from '../../support/wait.js';

/** Long enough for a gateway that would answer to have called the robot and posted. */
const settle = () => sleep(400);

describe('the message_changed echo of the app’s own answer', () => {
  const harness = useGatewayHarness();

  it('asks the robot nothing and posts nothing, in a thread the app is answering', async () => {
    const h = harness();
    const { answer, threadTs, placeholderTs } = await askByMention(h, 'How do I reset my password?');
    const asksBefore = h.robotAsks().length;
    const postsBefore = h.slack.calls('chat.postMessage').length;
    const updatesBefore = h.slack.calls('chat.update').length;

    // What Slack sends after the placeholder was replaced by the answer.
    const echo = messageChanged({
      channel: IDS.channel,
      message_ts: placeholderTs,
      thread_ts: threadTs,
      user: IDS.botUser,
      bot_id: IDS.bot,
      previous_text: 'Thinking…',
      text: String(answer.body.text),
    });
    expect((await h.sendEvent(echo)).status).toBe(200);
    await settle();

    expect(h.robotAsks()).toHaveLength(asksBefore);
    expect(h.slack.calls('chat.postMessage')).toHaveLength(postsBefore);
    expect(h.slack.calls('chat.update')).toHaveLength(updatesBefore);

    // The thread is live: a person's follow-up in it is answered, so the echo was ignored for being ours.
    const followUp = channelMessage({ text: 'and what about VPN?', thread_ts: threadTs });
    expect((await h.sendEvent(followUp)).status).toBe(200);
    await h.slack.waitForCall(
      'chat.update',
      (call) => textOf(call).includes('GlobalProtect') && call.body.channel === IDS.channel,
      5_000,
    );
    expect(h.robotAsks()).toHaveLength(asksBefore + 1);
  });
});
