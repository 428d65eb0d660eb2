// Starts the real gateway in HTTP mode on 127.0.0.1 against the platform simulator and a fake Slack
// Web API, and gives tests a way to talk to it as Slack would: signed events and clicks.

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Gateway } from '../../src/app.js';
import type { Env } from '../../src/config/env.js';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../src/simulator/index.js';
import {
  type FakeSlackApi,
  type FakeSlackApiOptions,
  type RecordedCall,
  startFakeSlackApi,
} from './fake-slack-api.js';
import type { LogRecord } from './log-sink.js';
import { deleteKeysWithPrefix } from './redis-server.js';
import { appMention, blockActionsPayload, eventCallback, IDS } from './slack-payloads.js';
import { type SlackAppResponse, sendEvent, sendInteraction } from './slack-signing.js';
import { startTestGateway } from './test-gateway.js';

export const SIGNING_SECRET = 'test-signing-secret-0123456789abcdef';
export const BOT_TOKEN = 'xoxb-test-bot-token';

export interface GatewayHarness {
  /** The gateway's origin, e.g. http://127.0.0.1:PORT. */
  url: string;
  gateway: Gateway;
  simulator: Simulator;
  slack: FakeSlackApi;
  env: Env;
  logs: LogRecord[];
  /** Posts a signed Events API envelope carrying `event`. */
  sendEvent(
    event: { type: string },
    headers?: Record<string, string>,
    eventId?: string,
  ): Promise<SlackAppResponse>;
  /** Posts a signed block_actions payload, form-encoded exactly as Slack does. */
  click(payload: unknown): Promise<SlackAppResponse>;
  /** Robot asks the simulator has received, with their `data`. */
  robotAsks(): Array<Record<string, unknown>>;
  /** Feedback calls the simulator has received, with their `data`. */
  feedbacks(): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Variables over the harness's (see test-gateway.ts for the test defaults). */
  env?: Record<string, string>;
  /** Reuse a simulator (two gateways on one platform). */
  simulator?: Simulator;
}

export async function startGatewayHarness(options: HarnessOptions = {}): Promise<GatewayHarness> {
  const ownSimulator = options.simulator === undefined;
  const simulator = options.simulator ?? (await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN }));
  const slack = await startFakeSlackApi({
    users: {
      [IDS.user]: { displayName: 'Jane Doe', locale: 'en-US' },
      U_OTHER: { displayName: 'Sam Other', locale: 'en-US' },
      U_ZH: { displayName: '王小明', locale: 'zh-CN' },
    },
  });
  const closeFakes = async () => {
    await slack.close();
    if (ownSimulator) await simulator.close();
  };
  const { gateway, env, logs, url } = await startTestGateway({
    env: {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.url,
      CS_OPEN_URL: simulator.url,
      ...options.env,
    },
    closeFakes,
  });

  return harnessOf({ gateway, env, logs, url }, { simulator, slack }, async () => {
    await gateway.stop();
    await closeFakes();
  });
}

/** The harness over a started gateway: how a test talks to it as Slack would, and what it asked. */
function harnessOf(
  started: { gateway: Gateway; env: Env; logs: LogRecord[]; url: string },
  fakes: { simulator: Simulator; slack: FakeSlackApi },
  close: () => Promise<void>,
): GatewayHarness {
  const { url } = started;
  const dataOf = (action: string) =>
    fakes.simulator.received
      .filter((request) => isRecord(request.body) && request.body.action === action)
      .map((request) => (isRecord(request.body) && isRecord(request.body.data) ? request.body.data : {}));
  return {
    ...started,
    ...fakes,
    sendEvent: (event, headers, eventId) =>
      sendEvent(url, SIGNING_SECRET, eventCallback(event, eventId ? { event_id: eventId } : {}), headers),
    click: (payload) => sendInteraction(url, SIGNING_SECRET, payload),
    robotAsks: () => dataOf('chat_user_robot_ask'),
    feedbacks: () => dataOf('robot_feedback'),
    close,
  };
}

/**
 * One replica of several sharing the fakes (and, through `env`, a Redis): its close stops this
 * gateway only; whoever started the fakes closes them once every replica has stopped.
 */
async function startReplica(
  fakes: { simulator: Simulator; slack: FakeSlackApi },
  env: Record<string, string>,
): Promise<GatewayHarness> {
  const started = await startTestGateway({
    env: {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fakes.slack.url,
      CS_OPEN_URL: fakes.simulator.url,
      ...env,
    },
    closeFakes: async () => undefined,
  });
  return harnessOf(started, fakes, () => started.gateway.stop());
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The blocks a Web API call carried. */
export function blocksOf(call: RecordedCall): Array<Record<string, unknown>> {
  const blocks = call.body.blocks;
  return Array.isArray(blocks) ? blocks.filter(isRecord) : [];
}

/** Every button in the call's blocks, with the block it sits in. */
export function buttonsOf(
  call: RecordedCall,
): Array<{ blockId: string; actionId: string; value: string; text: string }> {
  return blocksOf(call).flatMap((block) => {
    if (block.type !== 'actions' || !Array.isArray(block.elements)) return [];
    return block.elements.filter(isRecord).map((element) => ({
      blockId: String(block.block_id ?? ''),
      actionId: String(element.action_id ?? ''),
      value: String(element.value ?? ''),
      text: isRecord(element.text) ? String(element.text.text ?? '') : '',
    }));
  });
}

/** The button of a posted message with this action id; throws, naming the blocks, when there is none. */
export function buttonOf(call: RecordedCall, actionId: string) {
  const found = buttonsOf(call).find((candidate) => candidate.actionId === actionId);
  if (!found) throw new Error(`no ${actionId} button in ${JSON.stringify(call.body.blocks)}`);
  return found;
}

/** Slack's rating element (feedback_buttons in a context_actions block) of a posted message, if it has one. */
export function feedbackButtonsOf(
  call: RecordedCall,
): { blockId: string; actionId: string; positive: FeedbackSide; negative: FeedbackSide } | undefined {
  for (const block of blocksOf(call)) {
    if (block.type !== 'context_actions' || !Array.isArray(block.elements)) continue;
    const element = block.elements
      .filter(isRecord)
      .find((candidate) => candidate.type === 'feedback_buttons');
    if (!element || !isRecord(element.positive_button) || !isRecord(element.negative_button)) continue;
    return {
      blockId: String(block.block_id ?? ''),
      actionId: String(element.action_id ?? ''),
      positive: feedbackSide(element.positive_button),
      negative: feedbackSide(element.negative_button),
    };
  }
  return undefined;
}

interface FeedbackSide {
  value: string;
  text: string;
  accessibilityLabel: string | undefined;
}

function feedbackSide(side: Record<string, unknown>): FeedbackSide {
  return {
    value: String(side.value ?? ''),
    text: isRecord(side.text) ? String(side.text.text ?? '') : '',
    accessibilityLabel: typeof side.accessibility_label === 'string' ? side.accessibility_label : undefined,
  };
}

/** A click on one side of a posted message's feedback_buttons, as Slack sends it; throws when it has none. */
export function clickFeedback(
  message: RecordedCall,
  side: 'positive' | 'negative',
  fields: { user?: string; ts?: string; threadTs?: string } = {},
) {
  const feedback = feedbackButtonsOf(message);
  if (!feedback) throw new Error(`no feedback_buttons in ${JSON.stringify(message.body.blocks)}`);
  const { value, text } = feedback[side];
  return blockActionsPayload({
    ...(fields.user ? { user: fields.user } : {}),
    channel: String(message.body.channel ?? IDS.channel),
    message: {
      ts: fields.ts ?? String(message.response?.ts ?? message.body.ts ?? ''),
      ...(fields.threadTs ? { thread_ts: fields.threadTs } : {}),
      blocks: blocksOf(message),
      text: String(message.body.text ?? ''),
    },
    actions: [
      { action_id: feedback.actionId, block_id: feedback.blockId, value, text, type: 'feedback_buttons' },
    ],
  });
}

function textParts(value: unknown): string[] {
  const parts: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isRecord(node)) {
      for (const [key, child] of Object.entries(node)) {
        if (key === 'text' && typeof child === 'string') parts.push(child);
        else walk(child);
      }
    }
  };
  walk(value);
  return parts;
}

/** Every `text` string in a value (a view, blocks), at any depth, one a line. */
export function textsIn(value: unknown): string {
  return textParts(value).join('\n');
}

/** All visible text of a call: its fallback text and every text field of its blocks. */
export function textOf(call: RecordedCall): string {
  return [String(call.body.text ?? ''), ...textParts(call.body.blocks)].join('\n');
}

/**
 * Asks a question by mention and waits for the answer to be shown (the placeholder replaced).
 * Returns the answer's chat.update call and the thread it lives in.
 */
export async function askByMention(
  harness: GatewayHarness,
  question: string,
  fields: { user?: string; channel?: string } = {},
): Promise<{ answer: RecordedCall; threadTs: string; placeholderTs: string }> {
  const event = appMention({ text: `<@${IDS.botUser}> ${question}`, ...fields });
  const response = await harness.sendEvent(event);
  if (response.status !== 200) throw new Error(`event not accepted: ${response.status} ${response.text}`);
  const placeholder = await harness.slack.waitForCall(
    'chat.postMessage',
    (call) => call.body.thread_ts === event.ts,
    5_000,
  );
  const placeholderTs = await tsOfPost(harness, placeholder);
  const answer = await harness.slack.waitForCall(
    'chat.update',
    (call) => call.body.ts === placeholderTs,
    5_000,
  );
  return { answer, threadTs: event.ts, placeholderTs };
}

/** The ts the fake assigned to a recorded chat.postMessage (the n-th post gets the n-th ts). */
async function tsOfPost(harness: GatewayHarness, post: RecordedCall): Promise<string> {
  const response = post.response;
  if (isRecord(response) && typeof response.ts === 'string') return response.ts;
  throw new Error(`no ts recorded for chat.postMessage: ${JSON.stringify(harness.slack.calls().length)}`);
}

/** A block_actions click on a button of a message the gateway posted. */
export function clickButton(
  message: RecordedCall,
  button: { actionId: string; blockId: string; value: string; text: string },
  fields: { user?: string; ts?: string; threadTs?: string } = {},
) {
  const channel = String(message.body.channel ?? IDS.channel);
  const ts = fields.ts ?? String(message.body.ts ?? '');
  return blockActionsPayload({
    ...(fields.user ? { user: fields.user } : {}),
    channel,
    message: {
      ts,
      ...(fields.threadTs ? { thread_ts: fields.threadTs } : {}),
      blocks: blocksOf(message),
      text: String(message.body.text ?? ''),
    },
    actions: [
      { action_id: button.actionId, block_id: button.blockId, value: button.value, text: button.text },
    ],
  });
}

/** One gateway per describe block (or file), with the fakes reset and Jane Doe known before each test. */
export function useGatewayHarness(options: HarnessOptions = {}): () => GatewayHarness {
  let harness: GatewayHarness | undefined;
  beforeAll(async () => {
    harness = await startGatewayHarness(options);
  });
  afterAll(async () => {
    await harness?.close();
  });
  beforeEach(() => {
    const current = get();
    current.slack.reset();
    current.simulator.faults.clear();
    current.slack.setUser(IDS.user, { displayName: 'Jane Doe', locale: 'en-US' });
  });
  function get(): GatewayHarness {
    if (!harness) throw new Error('harness not started');
    return harness;
  }
  return get;
}

export interface RedisReplicas {
  replicas: [GatewayHarness, GatewayHarness];
  simulator: Simulator;
  slack: FakeSlackApi;
}

const REPLICAS_REDIS_URL = 'redis://127.0.0.1:6379';

/**
 * Two replicas of the gateway on the real Redis, under a key prefix of their own (deleted after),
 * sharing one simulator and one fake Slack, for the describe block it is called in. `beforeStart`
 * writes what the fleet finds in Redis at start (a channel's settings).
 */
export function useRedisReplicas(
  name: string,
  options: {
    env?: Record<string, string>;
    users?: FakeSlackApiOptions['users'];
    beforeStart?: (redis: { url: string; keyPrefix: string }) => Promise<void>;
    /** Another Redis than the shared one on 6379 (a Sentinel's): how to reach it, and to clean it after. */
    redis?: { variables: Record<string, string>; deleteKeys(keyPrefix: string): Promise<void> };
  } = {},
): () => RedisReplicas {
  const keyPrefix = `test:${name}:${process.pid}:${randomBytes(4).toString('hex')}:`;
  let fleet: RedisReplicas | undefined;
  const started: GatewayHarness[] = [];
  let fakes: { simulator: Simulator; slack: FakeSlackApi } | undefined;
  beforeAll(async () => {
    await options.beforeStart?.({ url: REPLICAS_REDIS_URL, keyPrefix });
    const simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
    const slack = await startFakeSlackApi({ users: options.users });
    fakes = { simulator, slack };
    const redis = options.redis?.variables ?? { REDIS_URL: REPLICAS_REDIS_URL };
    const env = { ...redis, REDIS_KEY_PREFIX: keyPrefix, ...options.env };
    for (let index = 0; index < 2; index += 1) started.push(await startReplica(fakes, env));
    const [a, b] = started;
    if (a && b) fleet = { replicas: [a, b], simulator, slack };
  }, 30_000);
  afterAll(async () => {
    for (const replica of started) await replica.close();
    await fakes?.slack.close();
    await fakes?.simulator.close();
    await (options.redis?.deleteKeys ?? deleteKeysWithPrefix)(keyPrefix);
  }, 30_000);
  return () => {
    if (!fleet) throw new Error('replicas not started');
    return fleet;
  };
}
