// Drives a Slack app under test the way Slack does: signed Events API posts over real HTTP on
// 127.0.0.1, one question in flight per user, and an answer counted when the fake Slack sees it.
import { Agent, request } from 'undici';
import { appMention, directMessage, eventCallback, eventFromTeam } from '../test/support/slack-payloads.js';
import { signSlackRequest } from '../test/support/slack-signing.js';
import { LEAN_BOT } from './lean-fake-slack.js';

/** Knowledge-base questions (answered with HTML, links and images) and one the robot cannot answer. */
const QUESTIONS = [
  'How do I connect to the VPN?',
  'How do I reset my password?',
  'How do I set up multi-factor authentication?',
  'How do I connect to the office Wi-Fi?',
  'How do I add a printer?',
  'How do I submit an expense claim?',
  'How do I request annual leave?',
  'How do I report sick leave?',
  'How do I request a new laptop?',
  'What is the airspeed of an unladen swallow?',
];
/** Every fourth question is a DM (message.im), the rest are mentions in a channel. */
const DM_EVERY = 4;
const CHANNELS = 10;

/** Settled by the fake Slack's onAnswer; a question's key is registered before its event is sent. */
export class AnswerBoard {
  readonly #waiting = new Map<string, (at: number) => void>();
  unexpected = 0;

  expect(key: string): Promise<number> {
    return new Promise((resolve) => this.#waiting.set(key, resolve));
  }

  forget(key: string): void {
    this.#waiting.delete(key);
  }

  settle(key: string, at: number): void {
    const resolve = this.#waiting.get(key);
    if (!resolve) {
      this.unexpected += 1;
      return;
    }
    this.#waiting.delete(key);
    resolve(at);
  }
}

export interface Target {
  url: string;
  secret: string;
  /** Installed in this many workspaces: each user asks from workspace `workspaceOfUser`. */
  workspaces?: number | undefined;
}

/** The workspace a bench user belongs to in a gateway installed in `workspaces` workspaces. */
export function workspaceOfUser(user: number, workspaces: number): string {
  return `T0WS${String(user % workspaces).padStart(3, '0')}`;
}

interface Sent {
  key: string;
  answered: Promise<number>;
  startedAt: number;
  ackMs: number;
  status: number;
}

let eventCounter = 0;
/** Events carry the time they are sent, as Slack's do: a state file's older rows sort before them. */
const FIRST_SECOND = Math.floor(Date.now() / 1000);

/** One question from user `user`: builds, signs and posts the event; resolves when the ack arrives. */
async function sendQuestion(
  target: Target,
  dispatcher: Agent,
  board: AnswerBoard,
  user: number,
): Promise<Sent> {
  eventCounter += 1;
  const n = eventCounter;
  const ts = `${FIRST_SECOND + Math.floor(n / 1_000_000)}.${String(n % 1_000_000).padStart(6, '0')}`;
  const userId = `UB${String(user).padStart(5, '0')}`;
  const question = `${QUESTIONS[n % QUESTIONS.length] ?? ''}`;
  const isDm = n % DM_EVERY === 0;
  const channel = isDm
    ? `DB${String(user).padStart(5, '0')}`
    : `CB${String(user % CHANNELS).padStart(5, '0')}`;
  const event = isDm
    ? directMessage({ user: userId, channel, ts, text: question })
    : appMention({ user: userId, channel, ts, text: `<@UBOT> ${question}` });
  // Mentions are answered in their thread; DMs at the top level of the user's own DM channel.
  const key = isDm ? channel : `${channel}:${ts}`;
  const answered = board.expect(key);
  const startedAt = performance.now();
  try {
    const team = target.workspaces ? workspaceOfUser(user, target.workspaces) : undefined;
    const status = await postEvent(target, dispatcher, event, team);
    return { key, answered, startedAt, ackMs: performance.now() - startedAt, status };
  } catch (error) {
    board.forget(key);
    throw error;
  }
}

/** Posts one event as Slack does (an event_callback, signed); resolves with the ack's status. */
async function postEvent(
  target: Target,
  dispatcher: Agent,
  event: { type: string },
  team?: string,
): Promise<number> {
  const body = JSON.stringify(team ? eventFromTeam(event, team, LEAN_BOT.userId) : eventCallback(event));
  const response = await request(`${target.url}/slack/events`, {
    dispatcher,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signSlackRequest(target.secret, body) },
    body,
  });
  await response.body.dump();
  return response.statusCode;
}

function timeout(ms: number): Promise<'timeout'> {
  return new Promise((resolve) => setTimeout(resolve, ms, 'timeout').unref());
}

export interface LoadOptions {
  concurrency: number;
  users: number;
  /** The first user's number (users `firstUser` … `firstUser + users - 1`); 0 unless given. */
  firstUser?: number;
  warmupMs: number;
  measureMs: number;
  answerTimeoutMs: number;
  /** Called when the warm-up ends and the measuring window opens. */
  onMeasureStart?: () => void;
}

export interface LoadResult {
  answered: number;
  errors: number;
  /** Of `errors`: non-200 acks, transport failures, and answers that never came. */
  errorKinds: { status: number; transport: number; unanswered: number };
  measureMs: number;
  /** Event sent → the Slack call carrying its answer. */
  latencies: number[];
  /** Event sent → the HTTP response to it. */
  acks: number[];
}

/**
 * A closed loop: `concurrency` questions in flight, each from a different user, each new one sent
 * when one is answered. Runs a warm-up, then measures the questions sent in the measuring window.
 */
export async function runLoad(target: Target, board: AnswerBoard, options: LoadOptions): Promise<LoadResult> {
  const dispatcher = new Agent({ connections: options.concurrency, keepAliveTimeout: 10_000 });
  const idleUsers = Array.from({ length: options.users }, (_, i) => (options.firstUser ?? 0) + i);
  const result: LoadResult = {
    answered: 0,
    errors: 0,
    errorKinds: { status: 0, transport: 0, unanswered: 0 },
    measureMs: options.measureMs,
    latencies: [],
    acks: [],
  };
  const begin = performance.now();
  const measureFrom = begin + options.warmupMs;
  const measureTo = measureFrom + options.measureMs;
  const opening = setTimeout(() => options.onMeasureStart?.(), options.warmupMs);

  const worker = async () => {
    while (performance.now() < measureTo) {
      // Oldest idle user first, so a user's next question comes long after its last one.
      const user = idleUsers.shift() ?? 0;
      let sent: Sent | undefined;
      try {
        sent = await sendQuestion(target, dispatcher, board, user);
      } catch {
        if (performance.now() >= measureFrom) {
          result.errors += 1;
          result.errorKinds.transport += 1;
        }
      }
      if (sent) {
        const counted = sent.startedAt >= measureFrom;
        if (sent.status !== 200) {
          board.forget(sent.key);
          if (counted) {
            result.errors += 1;
            result.errorKinds.status += 1;
          }
        } else {
          const at = await Promise.race([sent.answered, timeout(options.answerTimeoutMs)]);
          if (at === 'timeout') {
            board.forget(sent.key);
            if (counted) {
              result.errors += 1;
              result.errorKinds.unanswered += 1;
            }
          } else if (counted) {
            result.answered += 1;
            result.latencies.push(at - sent.startedAt);
            result.acks.push(sent.ackMs);
          }
        }
      }
      idleUsers.push(user);
    }
  };
  try {
    // In a closed loop every question sent in the window replaces one answered, so questions sent
    // (and answered) per window length is the answer rate.
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    clearTimeout(opening);
    await dispatcher.close();
  }
  return result;
}

export interface OpenLoopOptions {
  /** Events per second, sent on schedule whether or not earlier ones were acknowledged (open loop). */
  rate: number;
  seconds: number;
  /** The first user id of this phase: its users must not overlap earlier phases' in-flight ones. */
  firstUser: number;
  /** Users taking turns (the n-th event comes from user firstUser + n % users); a new user per event when unset. */
  users?: number;
  /** How long after its event an answer may arrive and still count. */
  answerTimeoutMs: number;
}

export interface OpenLoopResult {
  sent: number;
  /** Scheduled send time → the HTTP response, so a late send counts against the app (no coordinated omission). */
  acks: number[];
  /** Scheduled send time → the Slack call carrying the answer. */
  latencies: number[];
  /** Non-200 acks and transport failures. */
  errors: number;
  /** Answers that reached Slack within answerTimeoutMs. */
  answered: number;
}

/**
 * Starts `send(i, due)` for i = 0 … total-1, the i-th due `i / rate` seconds after the first (an
 * open loop: a slow answer never delays the next send); waits for all; returns how many it started.
 */
async function onSchedule(
  total: number,
  rate: number,
  send: (i: number, due: number) => Promise<void>,
): Promise<number> {
  const sends: Promise<void>[] = [];
  const begin = performance.now();
  for (let i = 0; i < total; i += 1) {
    const due = begin + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    // Timed from when it was due, or from when it went if a timer fired early (by up to a
    // millisecond: Node's timers count whole ones), which timed some acks at -0.1 ms.
    sends.push(send(i, Math.min(due, performance.now())));
  }
  await Promise.all(sends);
  return sends.length;
}

/**
 * Sends `rate` questions a second for `seconds` on a fixed schedule, and
 * times each ack and answer. At a rate both systems sustain, this compares the time a question
 * takes rather than queueing; with a slow robot every question stays in flight (5 s at 200/s is
 * 1,000 unanswered questions) while the app keeps acknowledging new ones.
 */
export async function runOpenLoop(
  target: Target,
  board: AnswerBoard,
  options: OpenLoopOptions,
): Promise<OpenLoopResult> {
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  const result: OpenLoopResult = { sent: 0, acks: [], latencies: [], errors: 0, answered: 0 };
  const total = Math.round(options.rate * options.seconds);
  const one = async (user: number, due: number) => {
    let sent: Sent;
    try {
      sent = await sendQuestion(target, dispatcher, board, user);
    } catch {
      result.errors += 1;
      return;
    }
    if (sent.status !== 200) {
      board.forget(sent.key);
      result.errors += 1;
      return;
    }
    result.acks.push(sent.startedAt + sent.ackMs - due);
    const at = await Promise.race([sent.answered, timeout(options.answerTimeoutMs)]);
    if (at === 'timeout') {
      board.forget(sent.key);
      return;
    }
    result.answered += 1;
    result.latencies.push(at - due);
  };
  try {
    result.sent = await onSchedule(total, options.rate, (i, due) =>
      one(options.firstUser + (options.users ? i % options.users : i), due),
    );
  } finally {
    await dispatcher.close();
  }
  return result;
}

export interface ChatterResult {
  sent: number;
  /** Scheduled send time → the HTTP response, as in runOpenLoop. */
  acks: number[];
  /** Non-200 acks and transport failures. */
  errors: number;
}

/**
 * Sends `rate` events a second for `seconds` on a fixed schedule, the n-th built by `build(n)`, and
 * times each ack. Nothing is awaited after the ack: these are messages the app must not answer (a
 * reply to one would show in the fake Slack's counts, which the caller reads).
 */
export async function runChatter(
  target: Target,
  build: (n: number) => { type: string },
  options: { rate: number; seconds: number },
): Promise<ChatterResult> {
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  const result: ChatterResult = { sent: 0, acks: [], errors: 0 };
  const total = Math.round(options.rate * options.seconds);
  const one = async (n: number, due: number) => {
    try {
      const status = await postEvent(target, dispatcher, build(n));
      if (status === 200) result.acks.push(performance.now() - due);
      else result.errors += 1;
    } catch {
      result.errors += 1;
    }
  };
  try {
    result.sent = await onSchedule(total, options.rate, one);
  } finally {
    await dispatcher.close();
  }
  return result;
}

/**
 * Posts one event and waits for its answer under `key` (as the fake Slack names it): whether it was
 * answered within `timeoutMs`.
 */
export async function answeredWithin(
  target: Target,
  board: AnswerBoard,
  event: { type: string },
  key: string,
  timeoutMs: number,
): Promise<boolean> {
  const dispatcher = new Agent({ keepAliveTimeout: 1_000 });
  const answered = board.expect(key);
  try {
    if ((await postEvent(target, dispatcher, event)) !== 200) return false;
    return (await Promise.race([answered, timeout(timeoutMs)])) !== 'timeout';
  } catch {
    return false;
  } finally {
    board.forget(key);
    await dispatcher.close();
  }
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}
