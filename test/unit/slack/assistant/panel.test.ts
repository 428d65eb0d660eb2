import { webApi } from '@slack/bolt';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createLogger } from '../../../../src/logging/logger.js';
import { assistantPanel } from '../../../../src/slack/assistant/panel.js';
import type { AssistantContextStore } from '../../../../src/slack/assistant/stores.js';
import { ChannelDirectory } from '../../../../src/slack/channels/directory.js';
import { beginHandling } from '../../../../src/slack/handling/handling.js';
import { Responder } from '../../../../src/slack/transport/responder.js';
import { MemoryChannelSettingsStore } from '../../../../src/stores/channel-settings.js';
import { MemoryOnceStore } from '../../../../src/stores/memory.js';
import { startFakeSlackApi } from '../../../support/fake-slack-api.js';
import { logSink } from '../../../support/log-sink.js';
import { memoryAssistantContexts } from '../../../support/memory-stores.js';
import { IDS } from '../../../support/slack-payloads.js';

const THREAD = { channel: IDS.dm, threadTs: '1700000000.000100' };

async function panelWith(options: { contexts?: AssistantContextStore; prompts?: readonly string[] } = {}) {
  const sink = logSink();
  const logger = createLogger({ level: 'debug', destination: sink.destination });
  const settings = new MemoryChannelSettingsStore();
  await settings.put('C0ROBOT3', { settings: { robot: 3, lang: 'zh' }, changedBy: 'U0OP', changedAt: 0 });
  const channels = new ChannelDirectory(settings, {
    defaults: { robotFlag: undefined, source: undefined, language: 'auto', reply: 'thread' },
    logger,
  });
  await channels.start();
  onTestFinished(() => channels.stop());
  const slack = await startFakeSlackApi();
  onTestFinished(() => slack.close());
  const responder = new Responder();
  const panel = assistantPanel({
    contexts: options.contexts ?? memoryAssistantContexts({ maxEntries: 10 }),
    titles: new MemoryOnceStore({ maxEntries: 10 }),
    placements: channels,
    responder,
    settings: { ttlSeconds: 60, prompts: options.prompts },
  });
  const client = new webApi.WebClient('xoxb-test', { slackApiUrl: slack.url, retryConfig: { retries: 0 } });
  const handling = beginHandling({ client, context: { teamId: IDS.team } }, { logger, users: unusedUsers });
  const bodies = (method: string) => slack.calls(method).map((call) => call.body);
  return { panel, slack, bodies, handling, logs: sink.records };
}

const unusedUsers = {
  lookup: () => Promise.reject(new Error('no one is looked up here')),
};

describe('the assistant panel', () => {
  it('asks with the default robot until a channel is kept beside the thread, then with that channel’s', async () => {
    const { panel, handling } = await panelWith();
    expect(await panel.placement(handling, THREAD)).toEqual({
      robotFlag: undefined,
      source: undefined,
      language: 'auto',
      reply: 'thread',
    });
    expect(await panel.rememberContext(handling, THREAD, 'C0ROBOT3')).toBe(true);
    // The robot is the channel's; the panel keeps speaking the person's own language.
    expect(await panel.placement(handling, THREAD)).toMatchObject({ robotFlag: 3, language: 'auto' });
    // Another thread of the same DM has no channel beside it.
    const other = { ...THREAD, threadTs: '1700000000.000200' };
    expect((await panel.placement(handling, other)).robotFlag).toBeUndefined();
  });

  it('asks with the default robot, and says why, when the store is down', async () => {
    const down: AssistantContextStore = {
      get: () => Promise.reject(new Error('connection refused')),
      set: () => Promise.reject(new Error('connection refused')),
    };
    const { panel, handling, logs } = await panelWith({ contexts: down });
    expect(await panel.rememberContext(handling, THREAD, 'C0ROBOT3')).toBe(false);
    expect((await panel.placement(handling, THREAD)).robotFlag).toBeUndefined();
    expect(logs.filter((line) => line.level === 40).map((line) => line.msg)).toEqual([
      'channel beside the assistant thread not kept; its next question uses the default robot',
      'assistant thread context unavailable; default robot used',
    ]);
  });

  it('suggests four prompts at most, each sending its whole question', async () => {
    const configured = await panelWith({ prompts: ['One?', 'Two?', 'Three?', 'Four?', 'Five?'] });
    expect(configured.panel.prompts('zh-CN').map((prompt) => prompt.message)).toEqual([
      'One?',
      'Two?',
      'Three?',
      'Four?',
    ]);
    const builtIn = await panelWith();
    const chinese = builtIn.panel.prompts('zh-CN');
    expect(chinese.length).toBeGreaterThan(0);
    expect(chinese.length).toBeLessThanOrEqual(4);
    expect(chinese[0]?.message).toMatch(/[\u4e00-\u9fff]/);
    const long = await panelWith({ prompts: ['x'.repeat(150)] });
    const [prompt] = long.panel.prompts('en');
    expect(prompt?.message).toHaveLength(150);
    expect([...(prompt?.title ?? '')].length).toBeLessThanOrEqual(75);
  });

  it('names a thread after its first question only', async () => {
    const { panel, bodies, handling } = await panelWith();
    await panel.titleOnce(handling, THREAD, ' \n ');
    await panel.titleOnce(handling, THREAD, '  How do I\nreset my password? ');
    await panel.titleOnce(handling, THREAD, 'And the VPN?');
    expect(bodies('assistant.threads.setTitle')).toEqual([
      { channel_id: THREAD.channel, thread_ts: THREAD.threadTs, title: 'How do I reset my password?' },
    ]);
  });

  it('shows the status without holding the question, and holds the answer until Slack took the status', async () => {
    const { panel, slack, bodies, handling } = await panelWith();
    // A slow Slack: the status is taken a while after it was sent.
    slack.delayNext('assistant.threads.setStatus', 300);
    const signal = panel.working(handling, THREAD, 'en', undefined);
    await signal.start(700);
    // Resolved while Slack has not taken the status: the robot is asked at once.
    expect(bodies('assistant.threads.setStatus')).toEqual([]);
    let shown = false;
    const answerMayShow = signal.shownTs().then((ts) => {
      shown = true;
      return ts;
    });
    await Promise.resolve();
    expect(shown).toBe(false);
    // No placeholder: the answer is posted, not put in place of another message.
    expect(await answerMayShow).toBeUndefined();
    expect(bodies('assistant.threads.setStatus')).toEqual([
      expect.objectContaining({ thread_ts: THREAD.threadTs, status: 'is looking this up…' }),
    ]);
  });

  it('shows the status in the person’s language', async () => {
    const { panel, slack, handling } = await panelWith();
    await panel.working(handling, THREAD, 'zh-CN', undefined).start(0);
    const call = await slack.waitForCall('assistant.threads.setStatus');
    expect(call.body).toMatchObject({ status: '正在查找答案…' });
  });
});
