import { webApi } from '@slack/bolt';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createLogger } from '../../../../src/logging/logger.js';
import { assistantPanel } from '../../../../src/slack/assistant/panel.js';
import type { AssistantContextStore } from '../../../../src/slack/assistant/stores.js';
import { ChannelDirectory } from '../../../../src/slack/channels/directory.js';
import { beginHandling } from '../../../../src/slack/handling/handling.js';
import { Responder } from '../../../../src/slack/transport/responder.js';
import { MemoryAssistantContextStore } from '../../../../src/stores/assistant-contexts.js';
import { MemoryChannelSettingsStore } from '../../../../src/stores/channel-settings.js';
import { MemoryOnceStore } from '../../../../src/stores/memory.js';
import { logSink } from '../../../support/log-sink.js';
import { IDS } from '../../../support/slack-payloads.js';

const THREAD = { channel: IDS.dm, threadTs: '1700000000.000100' };

/** A responder that records the panel's calls; the status call is held until released. */
class PanelResponder extends Responder {
  readonly statuses: string[] = [];
  readonly titles: string[] = [];
  #release: () => void = () => undefined;
  readonly #held = new Promise<void>((resolve) => {
    this.#release = resolve;
  });

  override async assistantStatus(
    _out: unknown,
    _thread: unknown,
    status: { text: string },
  ): Promise<boolean> {
    this.statuses.push(status.text);
    await this.#held;
    return true;
  }

  override async assistantTitle(_out: unknown, _thread: unknown, title: string): Promise<boolean> {
    this.titles.push(title);
    return true;
  }

  releaseStatus(): void {
    this.#release();
  }
}

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
  const responder = new PanelResponder();
  const panel = assistantPanel({
    contexts: options.contexts ?? new MemoryAssistantContextStore({ maxEntries: 10 }),
    titles: new MemoryOnceStore({ maxEntries: 10 }),
    placements: channels,
    responder,
    settings: { ttlSeconds: 60, prompts: options.prompts },
  });
  const client = new webApi.WebClient('xoxb-test');
  const handling = beginHandling({ client, context: { teamId: IDS.team } }, { logger, users: unusedUsers });
  return { panel, responder, handling, logs: sink.records };
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
    const { panel, responder, handling } = await panelWith();
    await panel.titleOnce(handling, THREAD, ' \n ');
    await panel.titleOnce(handling, THREAD, '  How do I\nreset my password? ');
    await panel.titleOnce(handling, THREAD, 'And the VPN?');
    expect(responder.titles).toEqual(['How do I reset my password?']);
  });

  it('shows the status without holding the question, and holds the answer until Slack took the status', async () => {
    const { panel, responder, handling } = await panelWith();
    const signal = panel.working(handling, THREAD, 'en', undefined);
    // Resolves while Slack has not answered the status: the robot is asked at once.
    await signal.start(700);
    expect(responder.statuses).toEqual(['is looking this up…']);
    let shown = false;
    const answerMayShow = signal.shownTs().then((ts) => {
      shown = true;
      return ts;
    });
    await Promise.resolve();
    expect(shown).toBe(false);
    responder.releaseStatus();
    // No placeholder: the answer is posted, not put in place of another message.
    expect(await answerMayShow).toBeUndefined();
  });
});
