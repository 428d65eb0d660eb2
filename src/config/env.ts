// The process environment as one typed, validated object. Only the entry point passes process.env in.
import { readFileSync } from 'node:fs';
import { Cron } from 'croner';
import { z } from 'zod';
import type { People } from '../conversation/channel-settings.js';
import { LOCALES } from '../conversation/locale.js';
import { type AgentGroup, type AgentGroupsProblem, parseAgentGroups } from '../service-desk/agent-groups.js';
import type { RedisNode, RedisServer, RedisTls } from '../stores/redis-client.js';
import { MAKE_A_KEY, Sealer } from '../stores/sealing.js';
import type { StoreChoice } from '../stores/stores.js';
import { httpUrlSchema } from '../util/http-url.js';
import { isTimeZone } from '../util/time-zone.js';

const optionalText = z.string().optional();

const optionalInteger = (minimum: number, maximum: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(
      z.number().int().min(minimum, `must be at least ${minimum}`).max(maximum, `must be at most ${maximum}`),
    )
    .optional();

const integer = (minimum: number, maximum: number, fallback: number) =>
  optionalInteger(minimum, maximum).default(fallback);

const httpUrl = httpUrlSchema.optional();

/** Judged as an operator reads it: without the spaces around it. */
const trimmed = z.string().transform((text) => text.trim());
/** A word from a list, in any case. */
const trimmedLowercase = z.string().transform((text) => text.trim().toLowerCase());

/** The shortest de-duplication memory allowed: Slack's retries of a delivery come within the hour. */
export const DEDUP_TTL_MIN_SECONDS = 3600;

/** Slack ids: users (U…, W…), user groups (S…), channels (C…, G…). */
const slackId = (what: string) =>
  trimmed
    .pipe(z.string().regex(/^[A-Z0-9]{2,32}$/, `must be a Slack ${what} id (capital letters and digits)`))
    .optional();

/** A comma-separated list of Slack user ids; spaces and empty items are ignored. */
const slackUserIds = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== ''),
  )
  .refine(
    (ids) => ids.every((id) => /^[UW][A-Z0-9]{1,31}$/.test(id)),
    'must be Slack user ids (U… or W…) separated by commas',
  )
  .default([]);

// Who to call, as Slack writes a mention or as a bare id: `<@U…|name>`, `<!subteam^S…|@name>`, U…, W…, S….
const PERSON_ITEM = /(?:<[^<>]*>|[^,\s])+/g;
const USER_MENTION = /^(?:<@([UW][A-Z0-9]{1,31})(?:\|[^<>]*)?>|([UW][A-Z0-9]{1,31}))$/;
const GROUP_MENTION = /^(?:<!subteam\^(S[A-Z0-9]{1,31})(?:\|[^<>]*)?>|(S[A-Z0-9]{1,31}))$/;

/** People and user groups separated by commas or spaces, each a mention or a bare id; duplicates dropped. */
const slackPeople = z
  .string()
  .transform((text, context): People => {
    const people: People = { users: [], groups: [] };
    for (const item of text.match(PERSON_ITEM) ?? []) {
      const user = USER_MENTION.exec(item);
      const group = GROUP_MENTION.exec(item);
      const userId = user?.[1] ?? user?.[2];
      const groupId = group?.[1] ?? group?.[2];
      if (userId !== undefined) {
        if (!people.users.includes(userId)) people.users.push(userId);
      } else if (groupId !== undefined) {
        if (!people.groups.includes(groupId)) people.groups.push(groupId);
      } else {
        // One line for the whole variable, never quoting the value.
        context.addIssue({
          code: 'custom',
          message:
            'must be people and user groups (<@U…>, <!subteam^S…>, or bare U…, W…, S… ids) separated by commas or spaces',
        });
        return z.NEVER;
      }
    }
    return people;
  })
  .optional();

// host:port, the host a name, IPv4 or a bracketed IPv6 address.
const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[^\s:,[\]]+):(\d{1,5})$/;

/** Sentinels or cluster nodes as `host:port` separated by commas; spaces around each ignored. */
const hostPorts = z
  .string()
  .transform((text, context): RedisNode[] => {
    const nodes: RedisNode[] = [];
    for (const item of text.split(',').map((part) => part.trim())) {
      const match = HOST_PORT.exec(item);
      const port = Number(match?.[2]);
      if (!match?.[1] || !(port >= 1 && port <= 65_535)) {
        context.addIssue({
          code: 'custom',
          message: 'must be host:port pairs separated by commas, e.g. 10.0.0.1:6379,10.0.0.2:6379',
        });
        return z.NEVER;
      }
      // node:net takes an IPv6 address without its brackets.
      nodes.push({ host: match[1].replace(/^\[(.*)\]$/, '$1'), port });
    }
    return nodes;
  })
  .optional();

/** Questions separated by `|` (so a question may hold commas); spaces and empty items are ignored. */
const questionList = (maxCount: number, maxLength: number) =>
  z
    .string()
    .transform((text) =>
      text
        .split('|')
        .map((question) => question.replace(/\s+/g, ' ').trim())
        .filter((question) => question !== ''),
    )
    .pipe(
      z
        .array(
          z
            .string()
            .refine(
              (question) => [...question].length <= maxLength,
              `each question must be at most ${maxLength} characters`,
            ),
        )
        .min(1, 'must hold at least one question')
        .max(maxCount, `must hold at most ${maxCount} questions`),
    )
    .optional();

const AGENT_GROUPS_MAX = 100;

function agentGroupsProblemText(problem: AgentGroupsProblem): string {
  const pair = `pair ${problem.index}`;
  switch (problem.kind) {
    case 'not_a_pair':
      return `${pair} must be id=name (no = found)`;
    case 'bad_id':
      return `${pair} has no group id before = (at most 36 characters, no spaces)`;
    case 'bad_name':
      return `${pair} has no name after = (at most 75 characters)`;
    case 'duplicate_id':
      return `${pair} repeats a group id given before`;
    case 'duplicate_name':
      return `${pair} repeats a name given before (names are compared without case)`;
  }
}

/** Service groups as `id=name` pairs separated by commas; one line per bad pair, never quoting it. */
const agentGroups = z
  .string()
  .transform((text, context): AgentGroup[] => {
    const { groups, problems } = parseAgentGroups(text);
    for (const problem of problems) {
      context.addIssue({ code: 'custom', message: agentGroupsProblemText(problem) });
    }
    if (groups.length + problems.length > AGENT_GROUPS_MAX) {
      context.addIssue({ code: 'custom', message: `must name at most ${AGENT_GROUPS_MAX} groups` });
    }
    return problems.length > 0 ? z.NEVER : groups;
  })
  .optional();

/** Shown to whoever is refused an operator's action: who can grant it (a name, a channel, a mention). */
const operatorContact = trimmed
  .pipe(
    z
      .string()
      .max(200, 'must be at most 200 characters')
      .refine((text) => !/[\p{Cc}]/u.test(text), 'must be one line of text'),
  )
  .optional();

/** true/false (also 1/0, yes/no, on/off) with a default. */
const flag = (fallback: boolean) =>
  trimmedLowercase
    .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], 'must be true or false'))
    .transform((text) => ['true', '1', 'yes', 'on'].includes(text))
    .default(fallback);

/** At most `points` questions in `seconds`, or no limit at all. */
export interface QuestionLimit {
  points: number;
  seconds: number;
}

/** `off`, or what `read` makes of the trimmed lowercase text; `message` names the form on anything else. */
const offOr = <T>(read: (text: string) => T | undefined, message: string, fallback: T) =>
  trimmedLowercase
    .transform((text, context): T | 'off' => {
      if (text === 'off') return 'off';
      const value = read(text);
      if (value === undefined) {
        context.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return value;
    })
    .optional()
    .transform((value) => value ?? fallback);

/** `N/Ds` (at most N questions in D seconds) or `off`. */
const questionLimit = (fallback: QuestionLimit) =>
  offOr(
    (text): QuestionLimit | undefined => {
      const match = /^(\d+)\s*\/\s*(\d+)\s*s$/.exec(text);
      const points = Number(match?.[1]);
      const seconds = Number(match?.[2]);
      if (!match || points < 1 || points > 1_000_000 || seconds < 1 || seconds > 86_400) return undefined;
      return { points, seconds };
    },
    'must be N/Ds, at most N questions in D seconds (e.g. 20/60s; N 1 to 1000000, D 1 to 86400), or off',
    fallback,
  );

/** PLATFORM_QUESTION_RATE's bounds: at least one question a second, at most what no platform would take. */
const PLATFORM_RATE_MAX = 100_000;

/** Questions a second to one platform account, or `off`. */
const platformQuestionRate = (fallback: number) =>
  offOr(
    (text) => {
      const rate = /^\d+$/.test(text) ? Number(text) : Number.NaN;
      return rate >= 1 && rate <= PLATFORM_RATE_MAX ? rate : undefined;
    },
    `must be N, at most N questions a second to one platform account (e.g. 10; N 1 to ${PLATFORM_RATE_MAX}), or off`,
    fallback,
  );

/** One workspace's bot token, or the app's OAuth credentials to be installed in many (distributed). */
export type SlackInstall =
  | { kind: 'workspace'; botToken: string }
  | {
      kind: 'distributed';
      clientId: string;
      clientSecret: string;
      stateSecret: string;
      installationKey: string;
    };

/** How the gateway meets Slack: each mode carries the secret it cannot run without. */
type SlackEnv = {
  install: SlackInstall;
  /** Web API base URL; tests point it at a fake. */
  apiUrl: string | undefined;
} & ({ mode: 'http'; signingSecret: string } | { mode: 'socket'; appToken: string });

type PlatformCredential =
  | { kind: 'static'; accessToken: string }
  | { kind: 'fetched'; appId: string; appKey: string; expireHours: number };

/** The built-in simulator (demo mode), or a platform with its identity and a credential. */
type PlatformEnv =
  | { kind: 'demo' }
  | { kind: 'configured'; openUrl: string; baseUrl: string; sysNum: string; credential: PlatformCredential };

/** Relative to the working directory; its folder is created at start. */
const DEFAULT_STATE_PATH = './data/gateway.sqlite';
/** SQLite's name for a database that lives in memory only; here it chooses the in-memory stores. */
const IN_MEMORY_STATE_PATH = ':memory:';

/** What croner accepts: the schedule is checked at start-up, not at its first tick. */
function isCronExpression(expression: string): boolean {
  try {
    new Cron(expression, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}

const variablesSchema = z.object({
  CS_OPEN_URL: httpUrl,
  CS_BASE_URL: httpUrl,
  CS_ACCESS_TOKEN: z.string().max(40, 'must be at most 40 characters').optional(),
  CS_APP_ID: optionalText,
  CS_APP_KEY: optionalText,
  CS_TOKEN_EXPIRE_HOURS: integer(1, 24, 2),
  CS_SYS_NUM: optionalText,
  CS_ROBOT_FLAG: optionalInteger(0, 999_999),
  CS_SOURCE: optionalInteger(0, 4),
  CS_TICKET_LIST_PATH: z.string().startsWith('/', 'must start with /').optional(),
  CS_CONNECT_TIMEOUT_MS: integer(100, 120_000, 5_000),
  CS_HEADERS_TIMEOUT_MS: integer(100, 300_000, 15_000),
  CS_BODY_TIMEOUT_MS: integer(100, 300_000, 15_000),
  CS_RETRY_ATTEMPTS: integer(0, 5, 2),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SLACK_BOT_TOKEN: optionalText,
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_APP_TOKEN: optionalText,
  SLACK_CLIENT_ID: optionalText,
  SLACK_CLIENT_SECRET: optionalText,
  SLACK_STATE_SECRET: optionalText,
  SLACK_INSTALLATION_KEY: optionalText,
  SLACK_API_URL: httpUrl,
  PORT: integer(0, 65_535, 3000),
  HOST: z
    .string()
    .regex(/^[^\s/]+$/, 'must be an address or host name, without spaces or a scheme')
    .default('0.0.0.0'),
  // Advanced: unset keeps the production policy (4 retries within 30 s, rate limits honour Retry-After).
  SLACK_WEB_API_RETRIES: optionalInteger(0, 10),
  // Advanced, Socket Mode only: unset keeps the Slack SDK's own (5 s and 30 s).
  SLACK_SOCKET_CLIENT_PING_TIMEOUT_MS: optionalInteger(100, 600_000),
  SLACK_SOCKET_SERVER_PING_TIMEOUT_MS: optionalInteger(100, 600_000),
  DEFAULT_LOCALE: z.enum(LOCALES).default('en'),
  CONTEXT_MAX_ENTRIES: integer(1, 10_000_000, 50_000),
  CONTEXT_TTL_SECONDS: integer(60, 90 * 24 * 3600, 7 * 24 * 3600),
  DEDUP_TTL_SECONDS: integer(DEDUP_TTL_MIN_SECONDS, 7 * 24 * 3600, 6 * 3600),
  // The Slack side checks its own, lower, ceiling when it is built (what a Try again button can carry).
  MAX_QUESTION_LENGTH: integer(1, Number.MAX_SAFE_INTEGER, 1_000),
  PLACEHOLDER_DELAY_MS: integer(0, 10_000, 700),
  // How long an operator's slow `/cs` stats, tickets or agents may take before "Working on it…" shows.
  WORKING_LINE_DELAY_MS: integer(0, 10_000, 700),
  QUESTION_DEADLINE_SECONDS: integer(1, 600, 60),
  // Questions a person, and a channel, may ask before a polite "ask again in …"; shared on Redis.
  USER_QUESTION_LIMIT: questionLimit({ points: 20, seconds: 60 }),
  CHANNEL_QUESTION_LIMIT: questionLimit({ points: 60, seconds: 60 }),
  // The platform states no rate limit: 10 a second per account is a guess that errs low (README, Limits).
  PLATFORM_QUESTION_RATE: platformQuestionRate(10),
  SHUTDOWN_GRACE_SECONDS: integer(0, 600, 25),
  SLASH_COMMAND: trimmed
    .pipe(
      z
        .string()
        .regex(
          /^\/[a-z0-9_-]{1,31}$/,
          'must be a slash command such as /cs (lowercase, at most 32 characters)',
        ),
    )
    .default('/cs'),
  OPERATOR_USER_IDS: slackUserIds,
  OPERATOR_USERGROUP_ID: slackId('user group'),
  // Unset: the refusal says "the app's administrators".
  OPERATOR_CONTACT: operatorContact,
  // Unset: the simulator's groups in demo mode; with a platform, `/cs agents` takes group ids only.
  AGENT_GROUPS: agentGroups,
  REVIEW_CHANNEL_ID: slackId('channel'),
  REVIEW_SHOW_ASKER: flag(true),
  REVIEW_CARD_REFRESH_SECONDS: integer(0, 3_600, 5),
  // Both or neither: without them a DM's answer offers no one to call.
  ESCALATE_TO: slackPeople,
  ESCALATION_CHANNEL_ID: slackId('channel'),
  // Unset: the Home tab offers its own examples, in the viewer's language. At most 5, of 150 characters each.
  HOME_EXAMPLE_QUESTIONS: questionList(5, 150),
  NOTIFY_ASKERS_ON_FIX: flag(true),
  // The assistant panel: its prompts (unset: the Home tab's examples, else built-in ones) and rating style.
  // Slack's panel shows at most four prompts (assistant.threads.setSuggestedPrompts).
  ASSISTANT_PROMPTS: questionList(4, 150),
  RATING_BUTTONS: trimmedLowercase
    .pipe(z.enum(['native', 'classic'], 'must be native or classic'))
    .default('native'),
  // Unset: no scheduled digest. A cron expression (5 fields, or 6 with seconds), in DIGEST_TIME_ZONE.
  DIGEST_SCHEDULE: trimmed
    .refine(isCronExpression, 'must be a cron expression, e.g. "0 9 * * 1" (Mondays at 09:00)')
    .optional(),
  DIGEST_CHANNEL_ID: slackId('channel'),
  DIGEST_TIME_ZONE: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone, e.g. Europe/Berlin or Asia/Shanghai')
    .default('UTC'),
  // Redis answers in a millisecond or two: past this a command is taken for an outage (the circuit opens).
  REDIS_COMMAND_TIMEOUT_MS: integer(50, 10_000, 300),
  REDIS_KEY_PREFIX: z
    .string()
    .max(100, 'must be at most 100 characters')
    .regex(/^[\w:.-]+$/, 'may hold letters, digits and _ : . - only')
    .default('cs-slack-gateway:'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  // Or a primary found through Sentinel, followed through failovers; credentials are then these (REDIS_URL
  // carries its own).
  REDIS_SENTINELS: hostPorts,
  REDIS_SENTINEL_NAME: optionalText,
  // Or a Redis Cluster, found through any of these nodes; credentials as for Sentinel.
  REDIS_CLUSTER_NODES: hostPorts,
  REDIS_USERNAME: optionalText,
  REDIS_PASSWORD: optionalText,
  // The sentinels' own `requirepass`, when they have one.
  REDIS_SENTINEL_PASSWORD: optionalText,
  // TLS to the sentinels and the nodes (a REDIS_URL says it with rediss://); a private CA's PEM file.
  REDIS_TLS: flag(false),
  REDIS_TLS_CA_FILE: optionalText,
  // Unset: Redis when REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES is set, else the SQLite file at STATE_PATH.
  STORE: trimmedLowercase
    .pipe(z.enum(['memory', 'sqlite', 'redis'], 'must be memory, sqlite or redis'))
    .optional(),
  // The SQLite engine's layers (docs/storage.md); unset keeps each on at its default.
  SQLITE_FLUSH_AFTER_MS: optionalInteger(0, 10_000),
  SQLITE_RECENT_CHARACTERS: optionalInteger(0, 100_000_000),
  SQLITE_KEY_FILTER: flag(true),
  SQLITE_WRITER_THREAD: flag(true),
  STATE_PATH: trimmed
    .pipe(
      z
        .string()
        .min(1)
        .refine((path) => !path.includes('\0'), 'must be a file path'),
    )
    .default(DEFAULT_STATE_PATH),
});

type Variables = z.infer<typeof variablesSchema>;
type Report = (variable: keyof Variables, message: string) => void;

/** Slack's part, or undefined when it cannot be made. Judges trimmed values, as an operator reads them. */
function slackEnv(variables: Variables, problem: Report): SlackEnv | undefined {
  const {
    SLACK_BOT_TOKEN: botToken,
    SLACK_APP_TOKEN: appToken,
    SLACK_SIGNING_SECRET: signingSecret,
  } = variables;
  const install = slackInstall(variables, problem);
  if (!appToken && !signingSecret) {
    problem('SLACK_SIGNING_SECRET', 'is required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)');
  }
  if (appToken && !appToken.trim().startsWith('xapp-')) {
    problem('SLACK_APP_TOKEN', 'must be an app-level token starting with xapp-');
  }
  if (botToken && !botToken.trim().startsWith('xoxb-')) {
    problem('SLACK_BOT_TOKEN', 'must be a bot token starting with xoxb-');
  }
  if (!install) return undefined;
  const apiUrl = variables.SLACK_API_URL;
  // An app token wins over a signing secret: Socket Mode needs no public URL.
  if (appToken) return { mode: 'socket', install, appToken, apiUrl };
  return signingSecret ? { mode: 'http', install, signingSecret, apiUrl } : undefined;
}

/** A channel is one workspace's: installed in many, each names its own (the digest's in its Home set-up). */
function oneWorkspaceOnly(variables: Variables, problem: Report): void {
  if (variables.SLACK_BOT_TOKEN || !OAUTH_VARIABLES.some((variable) => variables[variable])) return;
  if (variables.REVIEW_CHANNEL_ID)
    problem('REVIEW_CHANNEL_ID', 'is for one workspace (SLACK_BOT_TOKEN); unset it to install in many');
  if (variables.DIGEST_CHANNEL_ID)
    problem(
      'DIGEST_CHANNEL_ID',
      "is for one workspace (SLACK_BOT_TOKEN); installed in many, each workspace names its digest's channel in its Home set-up",
    );
}

const OAUTH_VARIABLES = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'] as const;
const DISTRIBUTED =
  'to install in many workspaces (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET)';

/** A bot token for one workspace, or all three OAuth variables and the key its tokens are sealed under. */
function slackInstall(variables: Variables, report: Report): SlackInstall | undefined {
  const botToken = variables.SLACK_BOT_TOKEN;
  const oauthSet = OAUTH_VARIABLES.filter((variable) => variables[variable] !== undefined);
  if (botToken && oauthSet.length > 0) {
    report(
      'SLACK_BOT_TOKEN',
      `is for one workspace; unset it ${DISTRIBUTED}, or unset ${oauthSet.join(', ')}`,
    );
    return undefined;
  }
  if (botToken) return { kind: 'workspace', botToken };
  if (oauthSet.length === 0) {
    report(
      'SLACK_BOT_TOKEN',
      'is required (or set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to install in many workspaces)',
    );
    return undefined;
  }
  for (const variable of OAUTH_VARIABLES) {
    if (variables[variable] === undefined) report(variable, `is required ${DISTRIBUTED}`);
  }
  const key = variables.SLACK_INSTALLATION_KEY;
  if (key === undefined) {
    report(
      'SLACK_INSTALLATION_KEY',
      `is required ${DISTRIBUTED}: 32 bytes in base64 that seal the stored tokens; ${MAKE_A_KEY}`,
    );
  } else if (!Sealer.fromBase64(key)) {
    report('SLACK_INSTALLATION_KEY', `must be 32 bytes in base64; ${MAKE_A_KEY}`);
  }
  const {
    SLACK_CLIENT_ID: clientId,
    SLACK_CLIENT_SECRET: clientSecret,
    SLACK_STATE_SECRET: stateSecret,
  } = variables;
  if (!clientId || !clientSecret || !stateSecret || !key) return undefined;
  return { kind: 'distributed', clientId, clientSecret, stateSecret, installationKey: key.trim() };
}

/** The platform's part, or undefined when it cannot be made. */
function platformEnv(variables: Variables, problem: Report): PlatformEnv | undefined {
  const { CS_OPEN_URL: openUrl, CS_SYS_NUM: sysNum, CS_APP_ID: appId, CS_APP_KEY: appKey } = variables;
  const accessToken = variables.CS_ACCESS_TOKEN;
  if (openUrl) {
    if (!sysNum) problem('CS_SYS_NUM', 'is required when CS_OPEN_URL is set');
    if (!accessToken && !(appId && appKey)) {
      problem('CS_ACCESS_TOKEN', 'or both CS_APP_ID and CS_APP_KEY are required when CS_OPEN_URL is set');
    }
  } else if (variables.CS_BASE_URL) {
    problem('CS_BASE_URL', 'is set but CS_OPEN_URL is not; set both, or neither to use the simulator');
  }
  if ((appId === undefined) !== (appKey === undefined)) {
    problem(appId ? 'CS_APP_KEY' : 'CS_APP_ID', 'must be set together with its partner');
  }
  if (!openUrl) return { kind: 'demo' };
  // A fetched token is renewed before it lapses, so it is preferred when both are given.
  const credential: PlatformCredential | undefined =
    appId && appKey
      ? { kind: 'fetched', appId, appKey, expireHours: variables.CS_TOKEN_EXPIRE_HOURS }
      : accessToken
        ? { kind: 'static', accessToken }
        : undefined;
  if (!sysNum || !credential) return undefined;
  return { kind: 'configured', openUrl, baseUrl: variables.CS_BASE_URL ?? openUrl, sysNum, credential };
}

/** The variable naming each way of reaching Redis; exactly one may be set. */
const REDIS_SERVER_VARIABLES = {
  url: 'REDIS_URL',
  sentinel: 'REDIS_SENTINELS',
  cluster: 'REDIS_CLUSTER_NODES',
} as const satisfies Record<RedisServer['kind'], keyof Variables>;

/**
 * The shared Redis named by REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES, none, or 'invalid' once a
 * problem is reported.
 */
function redisServerEnv(variables: Variables, problem: Report): RedisServer | undefined | 'invalid' {
  const { REDIS_URL: url, REDIS_SENTINELS: sentinels, REDIS_SENTINEL_NAME: name } = variables;
  const { REDIS_CLUSTER_NODES: clusterNodes } = variables;
  const { REDIS_USERNAME: username, REDIS_PASSWORD: password } = variables;
  const sentinelPassword = variables.REDIS_SENTINEL_PASSWORD;
  let valid = true;
  const report: Report = (variable, message) => {
    problem(variable, message);
    valid = false;
  };
  const chosen = Object.values(REDIS_SERVER_VARIABLES).filter(
    (variable) => variables[variable] !== undefined,
  );
  const [first, ...others] = chosen;
  const last = others.at(-1);
  // One line however many are set: the last one named, and the others it clashes with.
  if (first !== undefined && last !== undefined) {
    report(last, `is set but so is ${[first, ...others.slice(0, -1)].join(' and ')}; set one of them`);
  }
  if (sentinels && !name) report('REDIS_SENTINEL_NAME', 'is required when REDIS_SENTINELS is set');
  if (name && !sentinels) report('REDIS_SENTINELS', 'is required when REDIS_SENTINEL_NAME is set');
  if (username && !password) report('REDIS_PASSWORD', 'is required when REDIS_USERNAME is set');
  const credentials: Array<[keyof Variables, string | undefined, boolean]> = [
    ['REDIS_USERNAME', username, Boolean(sentinels || clusterNodes)],
    ['REDIS_PASSWORD', password, Boolean(sentinels || clusterNodes)],
    ['REDIS_SENTINEL_PASSWORD', sentinelPassword, Boolean(sentinels)],
  ];
  for (const [variable, value, usable] of credentials) {
    if (value === undefined || usable) continue;
    const forWhom =
      variable === 'REDIS_SENTINEL_PASSWORD' ? 'REDIS_SENTINELS' : 'REDIS_SENTINELS and REDIS_CLUSTER_NODES';
    report(
      variable,
      url
        ? `is for ${forWhom}; with REDIS_URL put credentials in the URL (redis://user:password@host:6379)`
        : variable === 'REDIS_SENTINEL_PASSWORD'
          ? 'is set but REDIS_SENTINELS is not'
          : 'is set but neither REDIS_SENTINELS nor REDIS_CLUSTER_NODES is',
    );
  }
  const tls = redisTlsEnv(variables, report);
  if (!valid) return 'invalid';
  if (url) return { kind: 'url', url, ...(tls && { tls }) };
  const access = {
    ...(tls && { tls }),
    ...(username !== undefined && { username }),
    ...(password !== undefined && { password }),
  };
  if (clusterNodes) return { kind: 'cluster', nodes: clusterNodes, ...access };
  if (!sentinels || !name) return undefined;
  return {
    kind: 'sentinel',
    name,
    sentinels,
    ...access,
    ...(sentinelPassword !== undefined && { sentinelPassword }),
  };
}

/** TLS as REDIS_TLS, a rediss:// REDIS_URL and REDIS_TLS_CA_FILE say, its CA read now; undefined without. */
function redisTlsEnv(variables: Variables, report: Report): RedisTls | undefined {
  const { REDIS_URL: url, REDIS_TLS: tlsAsked, REDIS_TLS_CA_FILE: caFile } = variables;
  const anyServer = Object.values(REDIS_SERVER_VARIABLES).some((name) => variables[name] !== undefined);
  if (tlsAsked && !anyServer) {
    report('REDIS_TLS', 'is true but no Redis is set (REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES)');
  }
  if (tlsAsked && url?.startsWith('redis://')) {
    report('REDIS_TLS', 'is true but REDIS_URL starts with redis://; write rediss:// for TLS to it');
  }
  const on = url === undefined ? tlsAsked && anyServer : url.startsWith('rediss://');
  if (caFile === undefined) return on ? {} : undefined;
  if (!on) {
    report('REDIS_TLS_CA_FILE', 'is set but TLS is off: set REDIS_TLS=true, or write rediss:// in REDIS_URL');
    return undefined;
  }
  let ca: string;
  try {
    ca = readFileSync(caFile, 'utf8');
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    report('REDIS_TLS_CA_FILE', `cannot be read (${code})`);
    return undefined;
  }
  if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
    report('REDIS_TLS_CA_FILE', 'holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
    return undefined;
  }
  return { ca };
}

/** The store chosen by STORE, the Redis variables and STATE_PATH, or undefined once a problem is reported. */
function stateEnv(variables: Variables, problem: Report): StoreChoice | undefined {
  const { STORE: store, STATE_PATH: statePath } = variables;
  const server = redisServerEnv(variables, problem);
  if (server === 'invalid') return undefined;
  if (store === 'redis' && !server) {
    problem('REDIS_URL', 'or REDIS_SENTINELS or REDIS_CLUSTER_NODES is required when STORE is redis');
    return undefined;
  }
  if (server && store !== undefined && store !== 'redis') {
    // Two settings that disagree: guessing which one was meant could lose a fleet's shared state.
    problem('STORE', `is ${store} but ${REDIS_SERVER_VARIABLES[server.kind]} is set; unset one of them`);
    return undefined;
  }
  if (server) {
    return {
      kind: 'redis',
      server,
      keyPrefix: variables.REDIS_KEY_PREFIX,
      commandTimeoutMs: variables.REDIS_COMMAND_TIMEOUT_MS,
    };
  }
  if (store === 'memory' || statePath === IN_MEMORY_STATE_PATH) return { kind: 'memory' };
  // Only what was changed: the rest stays the engine's own default.
  const layers = {
    ...(variables.SQLITE_FLUSH_AFTER_MS !== undefined && { flushAfterMs: variables.SQLITE_FLUSH_AFTER_MS }),
    ...(variables.SQLITE_RECENT_CHARACTERS !== undefined && {
      recentCharacters: variables.SQLITE_RECENT_CHARACTERS,
    }),
    ...(!variables.SQLITE_KEY_FILTER && { keyFilter: false }),
    ...(!variables.SQLITE_WRITER_THREAD && { writerThread: false }),
  };
  return Object.keys(layers).length > 0
    ? { kind: 'sqlite', path: statePath, layers }
    : { kind: 'sqlite', path: statePath };
}

/** Where a DM's call for a person goes: both variables, or neither (no button in DMs). */
interface DirectEscalation {
  targets: People;
  channelId: string;
}

function escalationEnv(variables: Variables, problem: Report): DirectEscalation | undefined {
  const { ESCALATE_TO: targets, ESCALATION_CHANNEL_ID: channelId } = variables;
  if (targets && !channelId) {
    problem('ESCALATION_CHANNEL_ID', 'is required when ESCALATE_TO is set (where a DM’s call is posted)');
  } else if (channelId && !targets) {
    problem('ESCALATE_TO', 'is required when ESCALATION_CHANNEL_ID is set (who a DM’s call mentions)');
  } else if (targets && targets.users.length + targets.groups.length === 0) {
    problem('ESCALATE_TO', 'names nobody: give people or user groups, or leave it unset');
  }
  return targets && channelId ? { targets, channelId } : undefined;
}

/**
 * Every check across variables, each problem reported. The parts are read only when no problem was reported
 * anywhere, so a part need not withhold itself after one.
 */
function envParts(variables: Variables, problem: Report) {
  const slack = slackEnv(variables, problem);
  const platform = platformEnv(variables, problem);
  const state = stateEnv(variables, problem);
  if (
    variables.DIGEST_SCHEDULE &&
    variables.SLACK_BOT_TOKEN &&
    !variables.DIGEST_CHANNEL_ID &&
    !variables.REVIEW_CHANNEL_ID
  ) {
    problem('DIGEST_CHANNEL_ID', 'or REVIEW_CHANNEL_ID is required when DIGEST_SCHEDULE is set');
  }
  const directEscalation = escalationEnv(variables, problem);
  oneWorkspaceOnly(variables, problem);
  if (!slack || !platform || !state) return undefined;
  return { slack, platform, state, directEscalation };
}

const reportTo =
  (context: z.RefinementCtx): Report =>
  (variable, message) =>
    context.addIssue({ code: 'custom', path: [variable], message });

const envSchema = variablesSchema
  // A malformed variable stops the transform, not this: the checks across variables join its report.
  .superRefine((variables, context) => {
    if (context.issues.length > 0) envParts(variables, reportTo(context));
  })
  // Run once, so the Redis CA file is read once.
  .transform((variables, context) => {
    const parts = envParts(variables, reportTo(context));
    if (!parts) return z.NEVER;
    const {
      SLACK_BOT_TOKEN,
      SLACK_SIGNING_SECRET,
      SLACK_APP_TOKEN,
      SLACK_CLIENT_ID,
      SLACK_CLIENT_SECRET,
      SLACK_STATE_SECRET,
      SLACK_INSTALLATION_KEY,
      SLACK_API_URL,
      CS_OPEN_URL,
      CS_BASE_URL,
      CS_ACCESS_TOKEN,
      CS_APP_ID,
      CS_APP_KEY,
      CS_SYS_NUM,
      REDIS_URL,
      REDIS_SENTINELS,
      REDIS_SENTINEL_NAME,
      REDIS_CLUSTER_NODES,
      REDIS_USERNAME,
      REDIS_PASSWORD,
      REDIS_SENTINEL_PASSWORD,
      REDIS_KEY_PREFIX,
      STORE,
      STATE_PATH,
      SQLITE_FLUSH_AFTER_MS,
      SQLITE_RECENT_CHARACTERS,
      SQLITE_KEY_FILTER,
      SQLITE_WRITER_THREAD,
      ESCALATE_TO,
      ESCALATION_CHANNEL_ID,
      ...settings
    } = variables;
    return { ...settings, ...parts };
  });

export type Env = z.output<typeof envSchema>;

export type EnvResult = { ok: true; env: Env } | { ok: false; problems: string[] };

/** Validates the environment and reports every problem at once, one line each, never echoing a value. */
export function parseEnv(source: Record<string, string | undefined>): EnvResult {
  // A blank variable counts as unset.
  const result = envSchema.safeParse(
    Object.fromEntries(Object.entries(source).filter(([, value]) => value?.trim())),
  );
  if (result.success) return { ok: true, env: result.data };
  const problems = result.error.issues.map((issue) => {
    const variable = issue.path.map(String).join('.') || '(environment)';
    // Messages are our own or zod's type names; neither quotes the received value, so secrets stay out.
    return `${variable}: ${issue.message}`;
  });
  return { ok: false, problems: [...new Set(problems)] };
}
