// Chatter for the load bench's chatter phase: what people and bots say in channels that answer on
// the app's own, which the app must leave alone. Two channels with settings, written into the SQLite
// gateway's state file before it starts, as an operator's `/cs channel` would have left them.
import { writeChannelSettings } from '../src/stores/sqlite.js';
import { channelMessage, messageChanged } from '../test/support/slack-payloads.js';

/** One channel in `all` mode (every top-level message from a person answered), one in `questions` mode. */
export const CHATTER_CHANNELS = { all: 'CBCHATALL', questions: 'CBCHATQST' } as const;

/**
 * What the message listener drops from the event and the settings held in process alone (`top-level`),
 * and thread replies, which it can only drop after one store read (is the app answering that thread?).
 */
export type ChatterGroup = 'top-level' | 'thread';

/** Each kind, named as the report names it. */
export const CHATTER_KINDS = {
  'top-level': [
    'bot post (bot_id)',
    'edit (message_changed)',
    'join (channel_join)',
    'mention of someone else',
    'statement in the questions channel',
  ],
  thread: ['reply in a thread the app is not answering'],
} as const satisfies Record<ChatterGroup, readonly string[]>;

/** Chatter's people, apart from the questions' UB… users; 200 of them, so per-user ordering never queues. */
const PEOPLE = 200;
/** Threads people talk in, none of them the app's. */
const THREADS = 20;
const STATEMENTS = [
  'the build is green again',
  'deploying to staging now',
  'lunch is in the kitchen',
  'thanks, that fixed it',
  'merged, see you all tomorrow',
];

let counter = 0;
/** A day past the questions' (load-driver.ts), current like Slack's: never a question's ts. */
const CHATTER_SECOND = Math.floor(Date.now() / 1000) + 86_400;
/** Unique, increasing timestamps of their own, so chatter never shares a ts with a question. */
function nextTs(): string {
  counter += 1;
  return `${CHATTER_SECOND + Math.floor(counter / 1_000_000)}.${String(counter % 1_000_000).padStart(6, '0')}`;
}

/** What Slack sends when someone joins a channel: a `message` with a subtype, text written by Slack. */
interface JoinEvent {
  type: 'message';
  subtype: 'channel_join';
  user: string;
  text: string;
  channel: string;
  channel_type: 'channel';
  ts: string;
  event_ts: string;
}

const person = (n: number) => `UC${String(n % PEOPLE).padStart(5, '0')}`;

/** The n-th chatter event of `group`; the kinds of a group take turns, so each gets an equal share. */
export function chatterEvent(group: ChatterGroup, n: number): { type: string } {
  const user = person(n);
  const channel = CHATTER_CHANNELS.all;
  if (group === 'thread') {
    const parent = `1700300000.${String(n % THREADS).padStart(6, '0')}`;
    return channelMessage({
      channel,
      user,
      ts: nextTs(),
      text: 'on it, will report back',
      thread_ts: parent,
    });
  }
  switch (n % CHATTER_KINDS['top-level'].length) {
    case 0: {
      // An app's bot user posting as itself: no subtype, so only bot_id tells it from a person.
      const post = {
        ...channelMessage({ channel, user: 'U0DEPLOYBOT', ts: nextTs(), text: `Deploy #${n} finished` }),
        bot_id: 'B0DEPLOY',
        app_id: 'A0DEPLOY',
      };
      return post;
    }
    case 1:
      return messageChanged({ channel, user, text: 'the build is green again (fixed)' });
    case 2: {
      const ts = nextTs();
      const join: JoinEvent = {
        type: 'message',
        subtype: 'channel_join',
        user,
        text: `<@${user}> has joined the channel`,
        channel,
        channel_type: 'channel',
        ts,
        event_ts: ts,
      };
      return join;
    }
    case 3:
      // Reads as a question, and `all` would answer it, but it is asked of someone else.
      return channelMessage({ channel, user, ts: nextTs(), text: '<@U0ALICE> can you look at the deploy?' });
    default:
      return channelMessage({
        channel: CHATTER_CHANNELS.questions,
        user,
        ts: nextTs(),
        text: STATEMENTS[n % STATEMENTS.length] ?? 'the build is green again',
      });
  }
}

/**
 * Messages each chatter channel must answer, sent after the chatter: proof that the settings were in
 * effect, without which all chatter would be dropped as in `mention` mode and the phase measure nothing.
 * The key is the fake Slack's for a reply in the message's own thread.
 */
export function controlQuestions(): Array<{ name: string; event: { type: string }; key: string }> {
  return [
    { channel: CHATTER_CHANNELS.all, text: 'the printer on the third floor is jammed again', mode: 'all' },
    { channel: CHATTER_CHANNELS.questions, text: 'How do I connect to the VPN?', mode: 'questions' },
  ].map(({ channel, text, mode }) => {
    const ts = nextTs();
    return {
      name: `a person's message in the ${mode} channel`,
      event: channelMessage({ channel, user: person(PEOPLE - 1), ts, text }),
      key: `${channel}:${ts}`,
    };
  });
}

/** Writes both channels' settings into the (new) SQLite state file at `path`. */
export function writeChatterSettings(path: string): Promise<void> {
  return writeChannelSettings(
    path,
    { [CHATTER_CHANNELS.all]: { answer: 'all' }, [CHATTER_CHANNELS.questions]: { answer: 'questions' } },
    'U0OP',
  );
}
