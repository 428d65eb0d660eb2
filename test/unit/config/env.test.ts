import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEDUP_TTL_MIN_SECONDS, parseEnv } from '../../../src/config/env.js';
import {
  decodeTryAgainValue,
  encodeTryAgainValue,
  TRY_AGAIN_QUESTION_MAX,
} from '../../../src/slack/kit/button-values.js';

/** What every gateway needs from Slack (HTTP mode); the platform may be left to the simulator. */
const slack = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret' };

const platform = {
  CS_OPEN_URL: 'https://open.example.com/',
  CS_SYS_NUM: 'acme',
  CS_ACCESS_TOKEN: 'a'.repeat(40),
};

describe('parseEnv', () => {
  it("accepts Slack's variables alone: the gateway then runs on the built-in simulator", () => {
    const result = parseEnv(slack);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.env.platform).toEqual({ kind: 'demo' });
    expect(result.env.PORT).toBe(3000);
    expect(result.env.LOG_LEVEL).toBe('info');
    expect(result.env.DEFAULT_LOCALE).toBe('en');
    const fetched = parseEnv({ ...slack, ...platform, CS_APP_ID: 'app', CS_APP_KEY: 'key' });
    expect(
      fetched.ok && fetched.env.platform.kind === 'configured' && fetched.env.platform.credential,
    ).toEqual({ kind: 'fetched', appId: 'app', appKey: 'key', expireHours: 2 });
  });

  it('reads numbers and trims the trailing slash of URLs', () => {
    const result = parseEnv({ ...slack, ...platform, PORT: '8080', CS_ROBOT_FLAG: '3', CS_SOURCE: '2' });
    expect(result.ok && result.env).toMatchObject({
      platform: { openUrl: 'https://open.example.com' },
      PORT: 8080,
      CS_ROBOT_FLAG: 3,
      CS_SOURCE: 2,
    });
  });

  it('treats empty strings as unset, as a .env file copied from .env.example leaves them', () => {
    const result = parseEnv({ ...slack, CS_OPEN_URL: '', PORT: '', REDIS_URL: '' });
    expect(result.ok).toBe(true);
  });

  it('reports every problem at once, one line per variable', () => {
    const result = parseEnv({
      ...slack,
      CS_OPEN_URL: 'ftp://nope',
      PORT: 'eighty',
      CS_SOURCE: '9',
      LOG_LEVEL: 'chatty',
      CS_TOKEN_EXPIRE_HOURS: '48',
      REDIS_URL: 'localhost:6379',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const variables = result.problems.map((line) => line.split(':')[0]);
    expect(variables).toEqual(
      expect.arrayContaining([
        'CS_OPEN_URL',
        'PORT',
        'CS_SOURCE',
        'LOG_LEVEL',
        'CS_TOKEN_EXPIRE_HOURS',
        'REDIS_URL',
      ]),
    );
    expect(new Set(variables).size).toBe(variables.length);
  });

  it('requires the platform identity and a credential once a platform URL is set', () => {
    const result = parseEnv({ ...slack, CS_OPEN_URL: 'https://open.example.com' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.join('\n')).toMatch(/^CS_SYS_NUM: /m);
    expect(result.problems.join('\n')).toMatch(/^CS_ACCESS_TOKEN: .*CS_APP_ID/m);
  });

  it('accepts an app id and key instead of a static token, but not one without the other', () => {
    expect(
      parseEnv({ ...slack, ...platform, CS_ACCESS_TOKEN: '', CS_APP_ID: 'app', CS_APP_KEY: 'key' }).ok,
    ).toBe(true);
    const half = parseEnv({ ...slack, ...platform, CS_APP_ID: 'app' });
    expect(half.ok).toBe(false);
    if (!half.ok) expect(half.problems).toEqual(['CS_APP_KEY: must be set together with its partner']);
  });

  it('never echoes a secret value in a problem line', () => {
    const secretToken = `tok-${'x'.repeat(60)}`;
    const result = parseEnv({
      ...slack,
      ...platform,
      CS_ACCESS_TOKEN: secretToken,
      REDIS_URL: 'http://user:hunter2@redis',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const output = result.problems.join('\n');
    expect(output).toContain('CS_ACCESS_TOKEN: must be at most 40 characters');
    expect(output).not.toContain(secretToken);
    expect(output).not.toContain('hunter2');
  });
});

describe('DEDUP_TTL_SECONDS', () => {
  it('remembers a delivery for hours by default, well past Slack retrying it within the hour', () => {
    const result = parseEnv(slack);
    expect(result.ok && result.env.DEDUP_TTL_SECONDS).toBeGreaterThanOrEqual(3 * 3600);
  });

  it('refuses a memory shorter than an hour with one line, and takes an hour', () => {
    expect(DEDUP_TTL_MIN_SECONDS).toBe(3600);
    const short = parseEnv({ ...slack, DEDUP_TTL_SECONDS: '600' });
    expect(short.ok).toBe(false);
    if (!short.ok) expect(short.problems).toEqual(['DEDUP_TTL_SECONDS: must be at least 3600']);
    const hour = parseEnv({ ...slack, DEDUP_TTL_SECONDS: '3600' });
    expect(hour.ok && hour.env.DEDUP_TTL_SECONDS).toBe(3600);
  });
});

describe('USER_QUESTION_LIMIT and CHANNEL_QUESTION_LIMIT', () => {
  it('limits a person to 20 and a channel to 60 questions a minute when unset', () => {
    const result = parseEnv(slack);
    if (!result.ok) throw new Error(result.problems.join('; '));
    expect(result.env.USER_QUESTION_LIMIT).toEqual({ points: 20, seconds: 60 });
    expect(result.env.CHANNEL_QUESTION_LIMIT).toEqual({ points: 60, seconds: 60 });
  });

  it('reads N/Ds with spaces and either case, and off for no limit', () => {
    const result = parseEnv({ ...slack, USER_QUESTION_LIMIT: ' 3 / 10S ', CHANNEL_QUESTION_LIMIT: 'OFF' });
    if (!result.ok) throw new Error(result.problems.join('; '));
    expect(result.env.USER_QUESTION_LIMIT).toEqual({ points: 3, seconds: 10 });
    expect(result.env.CHANNEL_QUESTION_LIMIT).toBe('off');
  });

  it.each(['20', '20/60', '20 per minute', '0/60s', '20/0s', '-1/60s', '2.5/60s', '20/1m', '20/90000s'])(
    'refuses %j at start with one line naming the variable and the form',
    (value) => {
      const result = parseEnv({ ...slack, USER_QUESTION_LIMIT: value, CHANNEL_QUESTION_LIMIT: value });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      const form =
        'must be N/Ds, at most N questions in D seconds (e.g. 20/60s; N 1 to 1000000, D 1 to 86400), or off';
      expect(result.problems).toEqual([`USER_QUESTION_LIMIT: ${form}`, `CHANNEL_QUESTION_LIMIT: ${form}`]);
    },
  );
});

describe('PLATFORM_QUESTION_RATE', () => {
  it('sends one platform account at most 10 questions a second when unset', () => {
    const result = parseEnv(slack);
    if (!result.ok) throw new Error(result.problems.join('; '));
    expect(result.env.PLATFORM_QUESTION_RATE).toBe(10);
  });

  it('reads a whole number with spaces, and off in either case', () => {
    const rate = parseEnv({ ...slack, PLATFORM_QUESTION_RATE: ' 25 ' });
    expect(rate.ok && rate.env.PLATFORM_QUESTION_RATE).toBe(25);
    const off = parseEnv({ ...slack, PLATFORM_QUESTION_RATE: 'OFF' });
    expect(off.ok && off.env.PLATFORM_QUESTION_RATE).toBe('off');
  });

  it.each(['0', '-1', '2.5', '10/s', '10/1s', 'ten', '100001'])(
    'refuses %j at start with one line naming the variable and the form',
    (value) => {
      const result = parseEnv({ ...slack, PLATFORM_QUESTION_RATE: value });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.problems).toEqual([
        'PLATFORM_QUESTION_RATE: must be N, at most N questions a second to one platform account (e.g. 10; N 1 to 100000), or off',
      ]);
    },
  );
});

// That MAX_QUESTION_LENGTH may not exceed what a Try again button carries is checked by the Slack side,
// which owns that limit, when it is built: test/unit/slack/gateway-settings.test.ts.
describe('MAX_QUESTION_LENGTH', () => {
  it.each([
    ['English', '', 'How do I reset my password? '],
    // Three bytes a character in UTF-8; Slack's button value limit counts characters, not bytes.
    ['Chinese', '', '我忘记了密码，怎么重置？'],
    // An emoji is one character to the user and two to Slack; quotes grow when JSON escapes them.
    ['Chinese with an emoji and quotes', '请问"VPN"连不上怎么办😀 ', '公司网络连接问题'],
  ])('lets the longest allowed %s question be asked again whole from Try again', (_name, head, filler) => {
    const result = parseEnv({ ...slack, MAX_QUESTION_LENGTH: String(TRY_AGAIN_QUESTION_MAX) });
    if (!result.ok) throw new Error(result.problems.join('; '));
    const max = result.env.MAX_QUESTION_LENGTH;
    const characters = [...`${head}${filler.repeat(max)}`].slice(0, max);
    // The core trims questions, so the longest one that reaches Try again has no edge spaces.
    const question = characters.join('').trim();
    expect([...question].length).toBeGreaterThan(max - 2);
    expect(decodeTryAgainValue(encodeTryAgainValue({ question, docId: undefined }))?.q).toBe(question);
  });
});

describe('Slack variables', () => {
  it('requires a bot token and, in HTTP mode, a signing secret', () => {
    const result = parseEnv({});
    expect(!result.ok && result.problems).toEqual([
      'SLACK_BOT_TOKEN: is required (or set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to install in many workspaces)',
      'SLACK_SIGNING_SECRET: is required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)',
    ]);
  });

  it("treats a blank token as unset, and reports Slack's problems with the schema's in one report", () => {
    const result = parseEnv({ SLACK_BOT_TOKEN: '  ', SLACK_SIGNING_SECRET: 'secret' });
    expect(!result.ok && result.problems).toEqual([
      'SLACK_BOT_TOKEN: is required (or set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to install in many workspaces)',
    ]);
    const both = parseEnv({ PORT: 'eighty' });
    expect(!both.ok && both.problems.map((line) => line.split(':')[0])).toEqual(
      expect.arrayContaining(['PORT', 'SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET']),
    );
  });

  it('needs no signing secret in Socket Mode, and checks token kinds', () => {
    const env = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xoxb-wrong-kind' };
    const wrongKind = parseEnv(env);
    expect(!wrongKind.ok && wrongKind.problems).toEqual([
      'SLACK_APP_TOKEN: must be an app-level token starting with xapp-',
    ]);
    const socket = parseEnv({ ...env, SLACK_APP_TOKEN: 'xapp-1' });
    expect(socket.ok && socket.env.slack).toEqual({
      mode: 'socket',
      install: { kind: 'workspace', botToken: 'xoxb-1' },
      appToken: 'xapp-1',
      apiUrl: undefined,
    });
  });

  it('refuses a bot token of another kind', () => {
    const result = parseEnv({ ...slack, SLACK_BOT_TOKEN: 'xapp-1' });
    expect(!result.ok && result.problems).toEqual([
      'SLACK_BOT_TOKEN: must be a bot token starting with xoxb-',
    ]);
  });

  it('gives HTTP mode its signing secret', () => {
    const result = parseEnv({ ...slack, SLACK_API_URL: 'http://127.0.0.1:9/api/' });
    expect(result.ok && result.env.slack).toEqual({
      mode: 'http',
      install: { kind: 'workspace', botToken: 'xoxb-1' },
      signingSecret: 'secret',
      apiUrl: 'http://127.0.0.1:9/api',
    });
  });
});

describe('installing in many workspaces', () => {
  const key = Buffer.alloc(32, 7).toString('base64');
  const oauth = {
    SLACK_SIGNING_SECRET: 'secret',
    SLACK_CLIENT_ID: '123.456',
    SLACK_CLIENT_SECRET: 'client-secret',
    SLACK_STATE_SECRET: 'state-secret',
    SLACK_INSTALLATION_KEY: key,
  };

  it('takes the OAuth variables and the key in place of a bot token', () => {
    const result = parseEnv(oauth);
    expect(result.ok && result.env.slack.install).toEqual({
      kind: 'distributed',
      clientId: '123.456',
      clientSecret: 'client-secret',
      stateSecret: 'state-secret',
      installationKey: key,
    });
  });

  it("refuses one workspace's channels (review cards, the digest's)", () => {
    const result = parseEnv({ ...oauth, REVIEW_CHANNEL_ID: 'C0REVIEW', DIGEST_CHANNEL_ID: 'C0DIGEST' });
    expect(!result.ok && result.problems).toEqual([
      'REVIEW_CHANNEL_ID: is for one workspace (SLACK_BOT_TOKEN); unset it to install in many',
      "DIGEST_CHANNEL_ID: is for one workspace (SLACK_BOT_TOKEN); installed in many, each workspace names its digest's channel in its Home set-up",
    ]);
  });

  it('takes a digest schedule without a channel: each workspace names its own', () => {
    const result = parseEnv({ ...oauth, DIGEST_SCHEDULE: '0 9 * * 1' });
    expect(result.ok && result.env.DIGEST_SCHEDULE).toBe('0 9 * * 1');
  });

  it('refuses a bot token beside them, naming what to unset', () => {
    const result = parseEnv({ ...oauth, SLACK_BOT_TOKEN: 'xoxb-1' });
    expect(!result.ok && result.problems).toEqual([
      'SLACK_BOT_TOKEN: is for one workspace; unset it to install in many workspaces (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET), or unset SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET',
    ]);
  });

  it('names each missing one of a partial set, one line each', () => {
    const result = parseEnv({
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_CLIENT_ID: '123.456',
      SLACK_INSTALLATION_KEY: key,
    });
    expect(!result.ok && result.problems).toEqual([
      'SLACK_CLIENT_SECRET: is required to install in many workspaces (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET)',
      'SLACK_STATE_SECRET: is required to install in many workspaces (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET)',
    ]);
  });

  it.each([
    [
      'missing',
      undefined,
      'is required to install in many workspaces (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET): 32 bytes in base64 that seal the stored tokens; make one with `openssl rand -base64 32`',
    ],
    [
      'too short',
      Buffer.alloc(16, 1).toString('base64'),
      'must be 32 bytes in base64; make one with `openssl rand -base64 32`',
    ],
    [
      'not base64',
      'correct horse battery staple',
      'must be 32 bytes in base64; make one with `openssl rand -base64 32`',
    ],
  ])('refuses an installation key %s, with how to make one and never its value', (_name, value, message) => {
    const result = parseEnv({ ...oauth, SLACK_INSTALLATION_KEY: value });
    expect(!result.ok && result.problems).toEqual([`SLACK_INSTALLATION_KEY: ${message}`]);
  });
});

describe('platform variables', () => {
  it('gives a configured platform its identity and static token, the base URL defaulting to the open URL', () => {
    const result = parseEnv({ ...slack, ...platform });
    expect(result.ok && result.env.platform).toEqual({
      kind: 'configured',
      openUrl: 'https://open.example.com',
      baseUrl: 'https://open.example.com',
      sysNum: 'acme',
      credential: { kind: 'static', accessToken: platform.CS_ACCESS_TOKEN },
    });
  });

  it('fetches the token when an app id and key are given, even beside a static token', () => {
    const result = parseEnv({
      ...slack,
      ...platform,
      CS_BASE_URL: 'https://base.example.com',
      CS_APP_ID: 'app',
      CS_APP_KEY: 'key',
      CS_TOKEN_EXPIRE_HOURS: '5',
    });
    expect(result.ok && result.env.platform).toMatchObject({
      baseUrl: 'https://base.example.com',
      credential: { kind: 'fetched', appId: 'app', appKey: 'key', expireHours: 5 },
    });
  });
});

describe('bind address and advanced Slack client settings', () => {
  it('binds every address by default and leaves the Slack clients to their production settings', () => {
    const result = parseEnv(slack);
    expect(result.ok && result.env).toMatchObject({ HOST: '0.0.0.0' });
    if (!result.ok) return;
    expect(result.env.SLACK_WEB_API_RETRIES).toBeUndefined();
    expect(result.env.SLACK_SOCKET_CLIENT_PING_TIMEOUT_MS).toBeUndefined();
    expect(result.env.SLACK_SOCKET_SERVER_PING_TIMEOUT_MS).toBeUndefined();
  });

  it('takes a bind address, a retry count and ping timeouts, and refuses what is out of range', () => {
    const set = parseEnv({
      ...slack,
      HOST: '127.0.0.1',
      SLACK_WEB_API_RETRIES: '0',
      SLACK_SOCKET_CLIENT_PING_TIMEOUT_MS: '600',
      SLACK_SOCKET_SERVER_PING_TIMEOUT_MS: '2000',
    });
    expect(set.ok && set.env).toMatchObject({
      HOST: '127.0.0.1',
      SLACK_WEB_API_RETRIES: 0,
      SLACK_SOCKET_CLIENT_PING_TIMEOUT_MS: 600,
      SLACK_SOCKET_SERVER_PING_TIMEOUT_MS: 2000,
    });
    const wrong = parseEnv({
      ...slack,
      HOST: 'http://localhost',
      SLACK_WEB_API_RETRIES: '11',
      SLACK_SOCKET_CLIENT_PING_TIMEOUT_MS: '10',
    });
    expect(!wrong.ok && wrong.problems.map((line) => line.split(':')[0])).toEqual([
      'HOST',
      'SLACK_WEB_API_RETRIES',
      'SLACK_SOCKET_CLIENT_PING_TIMEOUT_MS',
    ]);
  });
});

describe('HOME_EXAMPLE_QUESTIONS', () => {
  it('is unset by default: the Home tab then offers its own examples', () => {
    const result = parseEnv({ ...slack, HOME_EXAMPLE_QUESTIONS: '  ' });
    expect(result.ok && result.env.HOME_EXAMPLE_QUESTIONS).toBeUndefined();
  });

  it('takes questions separated by |, commas and all, trimmed, empty items dropped', () => {
    const result = parseEnv({
      ...slack,
      HOME_EXAMPLE_QUESTIONS:
        ' How do I reset my password? | Laptop, phone or tablet: which can I use?||如何申请请假？ ',
    });
    expect(result.ok && result.env.HOME_EXAMPLE_QUESTIONS).toEqual([
      'How do I reset my password?',
      'Laptop, phone or tablet: which can I use?',
      '如何申请请假？',
    ]);
  });

  it('refuses more than 5 questions, or one longer than 150 characters, naming the variable', () => {
    const many = parseEnv({ ...slack, HOME_EXAMPLE_QUESTIONS: 'a|b|c|d|e|f' });
    expect(!many.ok && many.problems).toEqual(['HOME_EXAMPLE_QUESTIONS: must hold at most 5 questions']);
    const long = parseEnv({ ...slack, HOME_EXAMPLE_QUESTIONS: `short|${'界'.repeat(151)}` });
    expect(!long.ok && long.problems.map((line) => line.split(/[.:]/)[0])).toEqual([
      'HOME_EXAMPLE_QUESTIONS',
    ]);
    // 150 characters counted as people count them: CJK and emoji are one each.
    const fits = parseEnv({ ...slack, HOME_EXAMPLE_QUESTIONS: '😀'.repeat(150) });
    expect(fits.ok).toBe(true);
    const empty = parseEnv({ ...slack, HOME_EXAMPLE_QUESTIONS: ' | | ' });
    expect(!empty.ok && empty.problems).toEqual(['HOME_EXAMPLE_QUESTIONS: must hold at least one question']);
  });
});

describe('the assistant panel and rating', () => {
  it('rates natively by default; classic keeps the 👍/👎 buttons; anything else is one line', () => {
    const byDefault = parseEnv(slack);
    expect(byDefault.ok && byDefault.env.RATING_BUTTONS).toBe('native');
    const classic = parseEnv({ ...slack, RATING_BUTTONS: ' Classic ' });
    expect(classic.ok && classic.env.RATING_BUTTONS).toBe('classic');
    const wrong = parseEnv({ ...slack, RATING_BUTTONS: 'thumbs' });
    expect(!wrong.ok && wrong.problems).toEqual(['RATING_BUTTONS: must be native or classic']);
  });

  it('takes up to four prompts, as Slack shows at most four, naming the variable beyond', () => {
    const unset = parseEnv(slack);
    expect(unset.ok && unset.env.ASSISTANT_PROMPTS).toBeUndefined();
    const four = parseEnv({ ...slack, ASSISTANT_PROMPTS: 'a? | b, c? |d?|e?' });
    expect(four.ok && four.env.ASSISTANT_PROMPTS).toEqual(['a?', 'b, c?', 'd?', 'e?']);
    const five = parseEnv({ ...slack, ASSISTANT_PROMPTS: 'a|b|c|d|e' });
    expect(!five.ok && five.problems).toEqual(['ASSISTANT_PROMPTS: must hold at most 4 questions']);
  });
});

describe('AGENT_GROUPS', () => {
  it('is unset by default, and reads id=name pairs, names of several words', () => {
    const off = parseEnv(slack);
    expect(off.ok && off.env.AGENT_GROUPS).toBeUndefined();
    const on = parseEnv({ ...slack, AGENT_GROUPS: 'g-it=IT Service Desk, g-hr = HR Service' });
    expect(on.ok && on.env.AGENT_GROUPS).toEqual([
      { id: 'g-it', name: 'IT Service Desk' },
      { id: 'g-hr', name: 'HR Service' },
    ]);
  });

  it('says what is wrong with each bad pair on a line of its own, quoting none of them', () => {
    const result = parseEnv({ ...slack, AGENT_GROUPS: 'g-it=IT, secret-thing, g-it=Again' });
    expect(!result.ok && result.problems).toEqual([
      'AGENT_GROUPS: pair 2 must be id=name (no = found)',
      'AGENT_GROUPS: pair 3 repeats a group id given before',
    ]);
    expect(JSON.stringify(result)).not.toContain('secret-thing');
  });
});

describe('OPERATOR_CONTACT', () => {
  it('is unset by default, trimmed, and one line of at most 200 characters', () => {
    const off = parseEnv(slack);
    expect(off.ok && off.env.OPERATOR_CONTACT).toBeUndefined();
    const on = parseEnv({ ...slack, OPERATOR_CONTACT: ' the IT desk in #it-help ' });
    expect(on.ok && on.env.OPERATOR_CONTACT).toBe('the IT desk in #it-help');
    const long = parseEnv({ ...slack, OPERATOR_CONTACT: 'x'.repeat(201) });
    expect(!long.ok && long.problems).toEqual(['OPERATOR_CONTACT: must be at most 200 characters']);
    const lines = parseEnv({ ...slack, OPERATOR_CONTACT: 'one\ntwo' });
    expect(!lines.ok && lines.problems).toEqual(['OPERATOR_CONTACT: must be one line of text']);
  });
});

describe('the statistics digest', () => {
  it('is off by default, in UTC when on, and posts to the review channel unless told another', () => {
    const off = parseEnv(slack);
    expect(off.ok && off.env.DIGEST_SCHEDULE).toBeUndefined();
    const on = parseEnv({ ...slack, DIGEST_SCHEDULE: ' 0 9 * * 1 ', REVIEW_CHANNEL_ID: 'C123' });
    expect(on.ok && [on.env.DIGEST_SCHEDULE, on.env.DIGEST_TIME_ZONE]).toEqual(['0 9 * * 1', 'UTC']);
  });

  it('refuses a schedule it cannot read, a zone it does not know, and a schedule with nowhere to post', () => {
    const result = parseEnv({
      ...slack,
      DIGEST_SCHEDULE: 'every monday',
      DIGEST_TIME_ZONE: 'Mars/Olympus',
      DIGEST_CHANNEL_ID: 'C123',
    });
    expect(!result.ok && result.problems.map((line) => line.split(':')[0])).toEqual([
      'DIGEST_SCHEDULE',
      'DIGEST_TIME_ZONE',
    ]);
    const nowhere = parseEnv({ ...slack, DIGEST_SCHEDULE: '0 9 * * 1' });
    expect(!nowhere.ok && nowhere.problems).toEqual([
      'DIGEST_CHANNEL_ID: or REVIEW_CHANNEL_ID is required when DIGEST_SCHEDULE is set',
    ]);
  });
});

describe("a DM's call for a person (ESCALATE_TO, ESCALATION_CHANNEL_ID)", () => {
  it('is off without them: DMs offer no one to call', () => {
    const result = parseEnv(slack);
    expect(result.ok && result.env.directEscalation).toBeUndefined();
  });

  it('reads people and user groups as Slack escapes them and as bare ids, split by commas or spaces', () => {
    const result = parseEnv({
      ...slack,
      ESCALATE_TO: '<!subteam^S0HELP|@it-oncall>, <@U0ALICE|alice> W0BOB  S0NIGHT,<@U0ALICE>',
      ESCALATION_CHANNEL_ID: ' C0DESK ',
    });
    expect(result.ok && result.env.directEscalation).toEqual({
      targets: { users: ['U0ALICE', 'W0BOB'], groups: ['S0HELP', 'S0NIGHT'] },
      channelId: 'C0DESK',
    });
  });

  it('says in one line what is wrong, and never quotes the value', () => {
    const bad = parseEnv({
      ...slack,
      ESCALATE_TO: '@alice, <#C0HELP|help>',
      ESCALATION_CHANNEL_ID: 'C0DESK',
    });
    expect(!bad.ok && bad.problems).toEqual([
      'ESCALATE_TO: must be people and user groups (<@U…>, <!subteam^S…>, or bare U…, W…, S… ids) separated by commas or spaces',
    ]);
    const alone = parseEnv({ ...slack, ESCALATE_TO: 'U0ALICE' });
    expect(!alone.ok && alone.problems).toEqual([
      'ESCALATION_CHANNEL_ID: is required when ESCALATE_TO is set (where a DM’s call is posted)',
    ]);
    const nobody = parseEnv({ ...slack, ESCALATION_CHANNEL_ID: 'C0DESK' });
    expect(!nobody.ok && nobody.problems).toEqual([
      'ESCALATE_TO: is required when ESCALATION_CHANNEL_ID is set (who a DM’s call mentions)',
    ]);
    const commas = parseEnv({ ...slack, ESCALATE_TO: ' , ,', ESCALATION_CHANNEL_ID: 'C0DESK' });
    expect(!commas.ok && commas.problems).toEqual([
      'ESCALATE_TO: names nobody: give people or user groups, or leave it unset',
    ]);
  });
});

describe('where the state is kept', () => {
  const stateOf = (variables: Record<string, string>) => {
    const result = parseEnv({ ...slack, ...variables });
    return result.ok ? result.env.state : result.problems;
  };

  it('keeps it in a SQLite file by default, so one replica survives a restart without setting anything up', () => {
    expect(stateOf({})).toEqual({ kind: 'sqlite', path: './data/gateway.sqlite' });
    expect(stateOf({ STATE_PATH: ' /var/lib/gateway/state.db ' })).toEqual({
      kind: 'sqlite',
      path: '/var/lib/gateway/state.db',
    });
    expect(stateOf({ STORE: 'SQLite', STATE_PATH: 'state.db' })).toEqual({
      kind: 'sqlite',
      path: 'state.db',
    });
  });

  it('uses Redis whenever REDIS_URL is set, with its key prefix', () => {
    expect(stateOf({ REDIS_URL: 'redis://127.0.0.1:6379', STATE_PATH: 'ignored.db' })).toEqual({
      kind: 'redis',
      server: { kind: 'url', url: 'redis://127.0.0.1:6379' },
      keyPrefix: 'cs-slack-gateway:',
      commandTimeoutMs: 300,
    });
    expect(stateOf({ REDIS_URL: 'redis://h:1', STORE: 'redis', REDIS_KEY_PREFIX: 'a:' })).toMatchObject({
      kind: 'redis',
      keyPrefix: 'a:',
    });
  });

  it('gives each Redis command REDIS_COMMAND_TIMEOUT_MS to answer, and refuses one out of range', () => {
    expect(stateOf({ REDIS_URL: 'redis://h:1', REDIS_COMMAND_TIMEOUT_MS: '2000' })).toMatchObject({
      commandTimeoutMs: 2000,
    });
    expect(stateOf({ REDIS_URL: 'redis://h:1', REDIS_COMMAND_TIMEOUT_MS: '10' })).toEqual([
      expect.stringMatching(/^REDIS_COMMAND_TIMEOUT_MS: /),
    ]);
  });

  it('keeps it in memory for STORE=memory or STATE_PATH=:memory:', () => {
    expect(stateOf({ STORE: 'memory' })).toEqual({ kind: 'memory' });
    expect(stateOf({ STATE_PATH: ':memory:' })).toEqual({ kind: 'memory' });
  });

  it('refuses settings that disagree or name no store, one line each', () => {
    expect(stateOf({ STORE: 'redis' })).toEqual([
      'REDIS_URL: or REDIS_SENTINELS or REDIS_CLUSTER_NODES is required when STORE is redis',
    ]);
    expect(stateOf({ STORE: 'memory', REDIS_URL: 'redis://h:1' })).toEqual([
      'STORE: is memory but REDIS_URL is set; unset one of them',
    ]);
    expect(stateOf({ STORE: 'postgres' })).toEqual(['STORE: must be memory, sqlite or redis']);
  });

  it('finds the primary through Sentinel, with credentials for the nodes and for the sentinels', () => {
    expect(
      stateOf({
        REDIS_SENTINELS: '10.0.0.1:26379, sentinel-b.internal:26380,[::1]:26381',
        REDIS_SENTINEL_NAME: 'gateway',
        REDIS_USERNAME: 'gw',
        REDIS_PASSWORD: 'node-secret',
        REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
      }),
    ).toEqual({
      kind: 'redis',
      server: {
        kind: 'sentinel',
        name: 'gateway',
        sentinels: [
          { host: '10.0.0.1', port: 26379 },
          { host: 'sentinel-b.internal', port: 26380 },
          { host: '::1', port: 26381 },
        ],
        username: 'gw',
        password: 'node-secret',
        sentinelPassword: 'sentinel-secret',
      },
      keyPrefix: 'cs-slack-gateway:',
      commandTimeoutMs: 300,
    });
  });

  it('refuses Sentinel settings that are incomplete or clash with REDIS_URL, one line each, no value quoted', () => {
    const sentinels = { REDIS_SENTINELS: '127.0.0.1:26379', REDIS_SENTINEL_NAME: 'gateway' };
    expect(stateOf({ REDIS_SENTINELS: '127.0.0.1:26379' })).toEqual([
      'REDIS_SENTINEL_NAME: is required when REDIS_SENTINELS is set',
    ]);
    expect(stateOf({ REDIS_SENTINEL_NAME: 'gateway' })).toEqual([
      'REDIS_SENTINELS: is required when REDIS_SENTINEL_NAME is set',
    ]);
    expect(stateOf({ ...sentinels, REDIS_URL: 'redis://h:1' })).toEqual([
      'REDIS_SENTINELS: is set but so is REDIS_URL; set one of them',
    ]);
    expect(stateOf({ ...sentinels, STORE: 'sqlite' })).toEqual([
      'STORE: is sqlite but REDIS_SENTINELS is set; unset one of them',
    ]);
    expect(stateOf({ ...sentinels, REDIS_USERNAME: 'gw' })).toEqual([
      'REDIS_PASSWORD: is required when REDIS_USERNAME is set',
    ]);
    expect(stateOf({ REDIS_URL: 'redis://h:1', REDIS_PASSWORD: 'hunter2' })).toEqual([
      'REDIS_PASSWORD: is for REDIS_SENTINELS and REDIS_CLUSTER_NODES; with REDIS_URL put credentials in the URL (redis://user:password@host:6379)',
    ]);
    expect(stateOf({ REDIS_SENTINEL_PASSWORD: 'hunter2' })).toEqual([
      'REDIS_SENTINEL_PASSWORD: is set but REDIS_SENTINELS is not',
    ]);
    for (const list of ['127.0.0.1', '127.0.0.1:0', 'a:1,,b:2', 'secret-host:99999']) {
      expect(stateOf({ ...sentinels, REDIS_SENTINELS: list })).toEqual([
        'REDIS_SENTINELS: must be host:port pairs separated by commas, e.g. 10.0.0.1:6379,10.0.0.2:6379',
      ]);
    }
  });

  it('finds a Redis Cluster through the nodes named, with credentials for every node', () => {
    expect(
      stateOf({
        REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-b.internal:7001',
        REDIS_USERNAME: 'gw',
        REDIS_PASSWORD: 'node-secret',
      }),
    ).toEqual({
      kind: 'redis',
      server: {
        kind: 'cluster',
        nodes: [
          { host: '10.0.0.1', port: 7000 },
          { host: 'redis-b.internal', port: 7001 },
        ],
        username: 'gw',
        password: 'node-secret',
      },
      keyPrefix: 'cs-slack-gateway:',
      commandTimeoutMs: 300,
    });
  });

  it('refuses a cluster set beside another Redis, or with what only Sentinel takes, one line each', () => {
    const cluster = { REDIS_CLUSTER_NODES: '127.0.0.1:7000' };
    expect(stateOf({ ...cluster, REDIS_URL: 'redis://h:1' })).toEqual([
      'REDIS_CLUSTER_NODES: is set but so is REDIS_URL; set one of them',
    ]);
    expect(
      stateOf({ ...cluster, REDIS_URL: 'redis://h:1', REDIS_SENTINELS: 'h:2', REDIS_SENTINEL_NAME: 'gw' }),
    ).toEqual(['REDIS_CLUSTER_NODES: is set but so is REDIS_URL and REDIS_SENTINELS; set one of them']);
    expect(stateOf({ ...cluster, REDIS_SENTINEL_PASSWORD: 'hunter2' })).toEqual([
      'REDIS_SENTINEL_PASSWORD: is set but REDIS_SENTINELS is not',
    ]);
    expect(stateOf({ REDIS_PASSWORD: 'hunter2' })).toEqual([
      'REDIS_PASSWORD: is set but neither REDIS_SENTINELS nor REDIS_CLUSTER_NODES is',
    ]);
    expect(stateOf({ ...cluster, STORE: 'memory' })).toEqual([
      'STORE: is memory but REDIS_CLUSTER_NODES is set; unset one of them',
    ]);
    expect(stateOf({ REDIS_CLUSTER_NODES: '127.0.0.1' })).toEqual([
      'REDIS_CLUSTER_NODES: must be host:port pairs separated by commas, e.g. 10.0.0.1:6379,10.0.0.2:6379',
    ]);
  });

  describe('TLS to Redis', () => {
    const folder = mkdtempSync(join(tmpdir(), 'env-redis-tls-'));
    const caFile = join(folder, 'ca.pem');
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    writeFileSync(caFile, pem);
    const notPem = join(folder, 'ca.txt');
    writeFileSync(notPem, 'not a certificate');
    afterAll(() => rmSync(folder, { recursive: true, force: true }));
    const cluster = { REDIS_CLUSTER_NODES: '10.0.0.1:7000' };
    const sentinels = { REDIS_SENTINELS: '10.0.0.1:26379', REDIS_SENTINEL_NAME: 'gateway' };

    it('turns TLS on for the sentinels and the nodes, with the CA file read at start-up', () => {
      expect(stateOf({ ...cluster, REDIS_TLS: 'true' })).toMatchObject({
        server: { kind: 'cluster', tls: {} },
      });
      expect(stateOf({ ...sentinels, REDIS_TLS: 'yes', REDIS_TLS_CA_FILE: caFile })).toMatchObject({
        server: { kind: 'sentinel', tls: { ca: pem } },
      });
      expect(stateOf({ REDIS_URL: 'rediss://h:1', REDIS_TLS_CA_FILE: caFile })).toMatchObject({
        server: { kind: 'url', url: 'rediss://h:1', tls: { ca: pem } },
      });
      expect(stateOf({ ...cluster, REDIS_TLS: 'false' })).not.toHaveProperty('server.tls');
    });

    it('refuses TLS settings that cannot be followed, one line each', () => {
      expect(stateOf({ REDIS_URL: 'redis://h:1', REDIS_TLS: 'true' })).toEqual([
        'REDIS_TLS: is true but REDIS_URL starts with redis://; write rediss:// for TLS to it',
      ]);
      expect(stateOf({ REDIS_TLS: 'true' })).toEqual([
        'REDIS_TLS: is true but no Redis is set (REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES)',
      ]);
      expect(stateOf({ ...cluster, REDIS_TLS_CA_FILE: caFile })).toEqual([
        'REDIS_TLS_CA_FILE: is set but TLS is off: set REDIS_TLS=true, or write rediss:// in REDIS_URL',
      ]);
      expect(stateOf({ ...cluster, REDIS_TLS: 'true', REDIS_TLS_CA_FILE: join(folder, 'gone.pem') })).toEqual(
        ['REDIS_TLS_CA_FILE: cannot be read (ENOENT)'],
      );
      expect(stateOf({ ...cluster, REDIS_TLS: 'true', REDIS_TLS_CA_FILE: notPem })).toEqual([
        'REDIS_TLS_CA_FILE: holds no PEM certificate (-----BEGIN CERTIFICATE-----)',
      ]);
      expect(stateOf({ ...cluster, REDIS_TLS: 'maybe' })).toEqual(['REDIS_TLS: must be true or false']);
    });
  });
});
