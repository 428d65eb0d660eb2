// The stand-in for Slack's Web API, called directly: Slack's answers and errors, and what the page sees.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SlackStandIn } from '../../../../playground/slack-stand-in/web-api.js';
import { APP, dmOf, REVIEW_CHANNEL, Workspace } from '../../../../playground/workspace.js';

const TOKEN = 'xoxb-test';
const ALICE = 'U0ALICE';

let workspace: Workspace;
let slack: SlackStandIn;
const call = (method: string, body: Record<string, unknown>) => slack.call(method, body, TOKEN);

beforeEach(() => {
  workspace = new Workspace('/cs');
  slack = new SlackStandIn(workspace, { botToken: TOKEN, origin: () => 'http://127.0.0.1:9' });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the stand-in Web API', () => {
  it('posts to a person by user id in their DM with the app, and threads replies under their parent', () => {
    const posted = call('chat.postMessage', { channel: ALICE, text: 'hello' });
    expect(posted).toMatchObject({ ok: true, channel: dmOf(ALICE) });
    const reply = call('chat.postMessage', {
      channel: dmOf(ALICE),
      thread_ts: posted.ts,
      text: 'in the thread',
    });
    expect(reply.ok).toBe(true);
    expect(workspace.message(dmOf(ALICE), String(reply.ts))?.threadTs).toBe(posted.ts);
    expect(call('chat.postMessage', { channel: 'C0NOWHERE', text: 'x' })).toEqual({
      ok: false,
      error: 'channel_not_found',
    });
  });

  it("lists the workspace's user groups in Slack's shape, members only with include_users", () => {
    const listed = call('usergroups.list', {});
    expect(listed.ok).toBe(true);
    const groups = listed.usergroups as Array<Record<string, unknown>>;
    expect(groups.map(({ id, handle, name }) => ({ id, handle, name }))).toEqual([
      { id: 'S0ITONCALL', handle: 'it-oncall', name: 'IT on call' },
      { id: 'S0HRDESK', handle: 'hr-desk', name: 'HR desk' },
    ]);
    expect(groups[0]).toMatchObject({ is_usergroup: true, team_id: 'T0PLAY', date_delete: 0 });
    expect(groups[0]).not.toHaveProperty('users');
    const withUsers = call('usergroups.list', { include_users: 'true', include_count: true });
    expect((withUsers.usergroups as Array<Record<string, unknown>>)[0]).toMatchObject({
      users: ['U0OLIVIA'],
      user_count: 1,
    });
    expect(call('usergroups.users.list', { usergroup: 'S0HRDESK' })).toEqual({ ok: true, users: ['U0BOB'] });
    expect(call('usergroups.users.list', { usergroup: 'S0NONE' })).toEqual({
      ok: false,
      error: 'no_such_subteam',
    });
  });

  it('reads a thread back by the ts of its parent or of a reply, the parent first', () => {
    const parent = call('chat.postMessage', { channel: ALICE, text: 'question' });
    const first = call('chat.postMessage', { channel: dmOf(ALICE), thread_ts: parent.ts, text: 'one' });
    call('chat.postMessage', { channel: dmOf(ALICE), thread_ts: parent.ts, text: 'two' });
    const one = call('conversations.replies', {
      channel: dmOf(ALICE),
      ts: first.ts,
      oldest: first.ts,
      latest: first.ts,
      inclusive: true,
    });
    expect(one).toMatchObject({
      ok: true,
      messages: [{ text: 'question' }, { text: 'one', thread_ts: parent.ts }],
    });
    const whole = call('conversations.replies', { channel: dmOf(ALICE), ts: parent.ts });
    expect(Array.isArray(whole.messages) ? whole.messages.length : 0).toBe(3);
    expect(call('conversations.replies', { channel: dmOf(ALICE), ts: '1.000001' })).toEqual({
      ok: false,
      error: 'thread_not_found',
    });
  });

  it("refuses invalid blocks with Slack's error, and shows the refusal where the message would have been", () => {
    const refused = call('chat.postMessage', {
      channel: REVIEW_CHANNEL,
      text: 'x',
      blocks: [{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }],
    });
    expect(refused.error).toBe('invalid_blocks');
    const shown = workspace.snapshot().messages.find((message) => message.refusal !== undefined);
    expect(shown?.channel).toBe(REVIEW_CHANNEL);
    expect(shown?.refusal?.problems).toEqual([
      '[ERROR] must be less than 151 characters [json-pointer:/blocks/0/text/text]',
    ]);
    expect(workspace.snapshot().calls.at(-1)).toMatchObject({ method: 'chat.postMessage', ok: false });
  });

  it('updates and deletes only the app’s own messages', () => {
    const posted = call('chat.postMessage', { channel: REVIEW_CHANNEL, text: 'first' });
    expect(call('chat.update', { channel: REVIEW_CHANNEL, ts: posted.ts, text: 'second' }).ok).toBe(true);
    expect(workspace.message(REVIEW_CHANNEL, String(posted.ts))).toMatchObject({
      text: 'second',
      edited: true,
    });
    expect(call('chat.update', { channel: REVIEW_CHANNEL, ts: '1.000001', text: 'x' }).error).toBe(
      'message_not_found',
    );
    expect(call('chat.delete', { channel: REVIEW_CHANNEL, ts: posted.ts }).ok).toBe(true);
    expect(workspace.message(REVIEW_CHANNEL, String(posted.ts))).toBeUndefined();
  });

  it('opens a modal only with a live trigger, as Slack does after three seconds', () => {
    vi.useFakeTimers();
    const view = { type: 'modal', title: { type: 'plain_text', text: 'Hi' }, blocks: [] };
    expect(call('views.open', { trigger_id: '1.unknown', view }).error).toBe('invalid_trigger_id');
    const late = workspace.newTrigger(ALICE);
    vi.advanceTimersByTime(3_001);
    expect(call('views.open', { trigger_id: late, view }).error).toBe('expired_trigger_id');
    const opened = call('views.open', { trigger_id: workspace.newTrigger(ALICE), view });
    expect(opened.ok).toBe(true);
    expect(workspace.snapshot().modals[ALICE]?.map((modal) => modal.id)).toEqual([
      (opened.view as { id: string }).id,
    ]);
  });

  it('publishes a Home tab per person, and shares a file uploaded in three steps in the channel', async () => {
    expect(call('views.publish', { user_id: ALICE, view: { type: 'home', blocks: [] } }).ok).toBe(true);
    expect(workspace.snapshot().homes[ALICE]?.view.type).toBe('home');

    const url = call('files.getUploadURLExternal', { filename: 'tickets.csv', length: 11 });
    const fileId = String(url.file_id);
    expect(String(url.upload_url)).toBe(`http://127.0.0.1:9/upload/${fileId}`);
    expect(await slack.upload(fileId, Buffer.from('id,status\n1'), 'application/octet-stream')).toEqual({
      status: 200,
      text: 'OK - 11',
    });
    const done = call('files.completeUploadExternal', {
      files: [{ id: fileId, title: 'Tickets' }],
      channel_id: dmOf(ALICE),
      initial_comment: 'Your tickets',
    });
    expect(done.ok).toBe(true);
    const shared = workspace.snapshot().messages.find((message) => message.files.length > 0);
    expect(shared).toMatchObject({ channel: dmOf(ALICE), text: 'Your tickets', userId: APP.userId });
    expect(shared?.files[0]).toMatchObject({
      title: 'Tickets',
      name: 'tickets.csv',
      preview: 'id,status\n1',
    });
  });

  it('shows an uploaded image inline with its alt text, and refuses alt text past 1000 characters', async () => {
    const tooLong = call('files.getUploadURLExternal', {
      filename: 'a.png',
      length: 8,
      alt_text: 'x'.repeat(1001),
    });
    expect(tooLong.error).toBe('alt_txt_too_large');
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const url = call('files.getUploadURLExternal', {
      filename: 'chart.png',
      length: 8,
      alt_text: 'Questions a day',
    });
    const fileId = String(url.file_id);
    await slack.upload(fileId, png, 'application/octet-stream');
    expect(
      call('files.completeUploadExternal', { files: [{ id: fileId }], channel_id: dmOf(ALICE) }).ok,
    ).toBe(true);
    const shared = workspace.snapshot().messages.find((message) => message.files[0]?.name === 'chart.png');
    expect(shared?.files[0]).toMatchObject({
      preview: undefined,
      image: { url: `data:image/png;base64,${png.toString('base64')}`, altText: 'Questions a day' },
    });
  });

  it('shows a response_url reply to whoever asked only, unless it is for the channel', () => {
    const url = slack.responseUrl({
      userId: ALICE,
      channel: REVIEW_CHANNEL,
      threadTs: undefined,
      messageTs: undefined,
    });
    const key = url.split('/').pop() ?? '';
    expect(slack.respond(key, { text: 'just you' }).status).toBe(200);
    expect(slack.respond(key, { text: 'everyone', response_type: 'in_channel' }).status).toBe(200);
    const shown = workspace.snapshot().messages.map((message) => [message.text, message.visibleTo]);
    expect(shown).toEqual([
      ['just you', ALICE],
      ['everyone', undefined],
    ]);
    expect(slack.respond('unknown', { text: 'x' }).status).toBe(404);
  });

  describe('assistant threads', () => {
    const prompt = (title: string) => ({ title, message: `${title}?` });

    it('keeps the status until the app replies in the thread, and sets the title and prompts', () => {
      const thread = workspace.startAssistantThread(ALICE, REVIEW_CHANNEL);
      const where = { channel_id: thread.channel, thread_ts: thread.threadTs };
      expect(
        call('assistant.threads.setStatus', {
          ...where,
          status: 'is looking this up…',
          // web-api sends arrays in a form body as JSON.
          loading_messages: JSON.stringify(['Reading the knowledge base…']),
        }),
      ).toEqual({ ok: true });
      expect(call('assistant.threads.setTitle', { ...where, title: 'Password reset' })).toEqual({ ok: true });
      expect(
        call('assistant.threads.setSuggestedPrompts', {
          ...where,
          title: 'Try asking',
          prompts: [prompt('VPN'), prompt('Wi-Fi')],
        }),
      ).toEqual({ ok: true });
      expect(workspace.latestAssistantThread(ALICE)).toMatchObject({
        status: 'is looking this up…',
        loadingMessages: ['Reading the knowledge base…'],
        title: 'Password reset',
        promptsTitle: 'Try asking',
        prompts: [prompt('VPN'), prompt('Wi-Fi')],
        contextChannel: REVIEW_CHANNEL,
      });

      expect(
        call('chat.postMessage', { channel: thread.channel, thread_ts: thread.threadTs, text: 'Here' }).ok,
      ).toBe(true);
      expect(workspace.latestAssistantThread(ALICE)?.status).toBe('');
    });

    it('refuses more than four prompts and a prompt without a title or message, keeping the ones set', () => {
      const thread = workspace.startAssistantThread(ALICE, undefined);
      const where = { channel_id: thread.channel, thread_ts: thread.threadTs };
      call('assistant.threads.setSuggestedPrompts', { ...where, prompts: [prompt('First')] });
      expect(
        call('assistant.threads.setSuggestedPrompts', {
          ...where,
          prompts: [prompt('a'), prompt('b'), prompt('c'), prompt('d'), { title: ' ', message: '' }],
        }),
      ).toEqual({
        ok: false,
        error: 'invalid_arguments',
        response_metadata: {
          messages: [
            '[ERROR] must be less than 5 items [json-pointer:/prompts]',
            '[ERROR] must be more than 0 characters [json-pointer:/prompts/4/title]',
            '[ERROR] must be more than 0 characters [json-pointer:/prompts/4/message]',
          ],
        },
      });
      expect(workspace.latestAssistantThread(ALICE)?.prompts).toEqual([prompt('First')]);
    });

    it('names a thread or channel it does not know as Slack does, and a missing argument', () => {
      const thread = workspace.startAssistantThread(ALICE, undefined);
      expect(
        call('assistant.threads.setTitle', { channel_id: thread.channel, thread_ts: '1.000009', title: 'x' }),
      ).toEqual({ ok: false, error: 'invalid_thread_ts' });
      expect(
        call('assistant.threads.setTitle', { channel_id: thread.channel, thread_ts: 'soon', title: 'x' }),
      ).toEqual({ ok: false, error: 'invalid_thread_ts' });
      expect(
        call('assistant.threads.setStatus', {
          channel_id: 'D0NOBODY',
          thread_ts: thread.threadTs,
          status: 'x',
        }),
      ).toEqual({ ok: false, error: 'channel_not_found' });
      expect(call('assistant.threads.setStatus', { channel_id: thread.channel, status: 'x' })).toEqual({
        ok: false,
        error: 'invalid_arguments',
        response_metadata: { messages: ['[ERROR] missing required field [json-pointer:/thread_ts]'] },
      });
    });
  });
});
