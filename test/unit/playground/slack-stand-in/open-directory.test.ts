// The stand-in over the tests' open directory: what it never saw is taken to exist, as the tests'
// made-up payloads need, while Slack's own rules (Block Kit, the app's own messages) still hold.
import { describe, expect, it } from 'vitest';
import { OpenDirectory } from '../../../../playground/slack-stand-in/open-directory.js';
import { SlackStandIn } from '../../../../playground/slack-stand-in/web-api.js';
import { SlackWorkspace } from '../../../../playground/slack-stand-in/workspace.js';

const identity = {
  team: { id: 'T1', name: 'Acme' },
  app: { id: 'A1', botId: 'BBOT', userId: 'UBOT', name: 'gateway', handle: 'gateway' },
};

function standIn(): SlackStandIn {
  const workspace = new SlackWorkspace(new OpenDirectory(identity, { U2: { displayName: 'Hana' } }));
  return new SlackStandIn(workspace, { botToken: undefined, origin: () => 'http://127.0.0.1:9' });
}

describe('the stand-in over an open directory', () => {
  it('updates, links and deletes a message it never saw, as the app’s own', () => {
    const slack = standIn();
    expect(slack.call('chat.update', { channel: 'C1', ts: '1.2', text: 'x' }, 'xoxb-any')).toMatchObject({
      ok: true,
      ts: '1.2',
      message: { user: 'UBOT', bot_id: 'BBOT', text: 'x' },
    });
    expect(slack.call('chat.getPermalink', { channel: 'C1', message_ts: '1.2' }, undefined)).toMatchObject({
      ok: true,
      permalink: 'http://127.0.0.1:9/archives/C1/p12',
    });
    expect(slack.call('chat.delete', { channel: 'C1', ts: '1.2' }, undefined).ok).toBe(true);
  });

  it('keeps a reply under the thread it names, and takes any trigger and any view id', () => {
    const slack = standIn();
    const reply = slack.call('chat.postMessage', { channel: 'C1', thread_ts: '5.6', text: 'hi' }, undefined);
    expect(reply).toMatchObject({ ok: true, channel: 'C1', message: { thread_ts: '5.6' } });
    const view = { type: 'modal', title: { type: 'plain_text', text: 'Hi' }, blocks: [] };
    expect(slack.call('views.open', { trigger_id: '1.2.abc', view }, undefined).ok).toBe(true);
    expect(slack.call('views.update', { view_id: 'V123', view }, undefined)).toMatchObject({
      ok: true,
      view: { id: 'V123' },
    });
  });

  it('knows everyone, by the name it was told or a made-up one, and still checks Block Kit', () => {
    const slack = standIn();
    expect(slack.call('users.info', { user: 'U2' }, undefined)).toMatchObject({
      user: { profile: { display_name: 'Hana' } },
    });
    expect(slack.call('users.info', { user: 'U3' }, undefined)).toMatchObject({
      user: { profile: { display_name: 'User U3' }, tz: 'Asia/Tokyo' },
    });
    const tooLong = [{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }];
    expect(
      slack.call('chat.postMessage', { channel: 'C1', text: 'x', blocks: tooLong }, undefined).error,
    ).toBe('invalid_blocks');
  });
});
