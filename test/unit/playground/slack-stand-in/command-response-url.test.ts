// A slash command's response_url in the stand-in, as in Slack: replace_original changes the message
// the command last posted (an operator command's "Working on it…" becomes its result).
import { expect, it } from 'vitest';
import { SlackStandIn } from '../../../../playground/slack-stand-in/web-api.js';
import { REVIEW_CHANNEL, Workspace } from '../../../../playground/workspace.js';

const ALICE = 'U0ALICE';

it('replaces what a command’s URL last posted, and adds a message when not asked to replace', () => {
  const workspace = new Workspace('/cs');
  const slack = new SlackStandIn(workspace, { botToken: 'xoxb-test', origin: () => 'http://127.0.0.1:9' });
  const url = slack.responseUrl({
    userId: ALICE,
    channel: REVIEW_CHANNEL,
    threadTs: undefined,
    messageTs: undefined,
  });
  const key = url.split('/').pop() ?? '';
  expect(slack.respond(key, { text: 'Working on it…' }).status).toBe(200);
  expect(slack.respond(key, { text: 'the figures', replace_original: true }).status).toBe(200);
  expect(slack.respond(key, { text: 'another answer' }).status).toBe(200);
  const shown = workspace.snapshot().messages.map((message) => [message.text, message.visibleTo]);
  expect(shown).toEqual([
    ['the figures', ALICE],
    ['another answer', ALICE],
  ]);
});
