// What each endpoint and action of the simulated platform answers; transport lives in server.ts.
import {
  ACCESS_TOKEN_MAX_LENGTH,
  AGENT_LIST_ACTION,
  AGENT_LIST_DATA_MAX_LENGTH,
  AGENT_LIST_METHOD,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  MAX_TICKET_WINDOW_SECONDS,
  OPEN_ACTIONS,
  TICKET_SOURCES,
  TICKET_STATUSES,
} from '../platform/schemas.js';
import { isRecord } from '../util/json.js';
import type { KnowledgeEntry } from './knowledge-base.js';
import { md5Hex } from './prng.js';
import type { Robot } from './robot.js';
import type { Robots } from './robots.js';
import type { Statistics } from './statistics.js';
import { queryTickets, SERVICE_GROUPS, type StoredTicket } from './tickets.js';
import type { TokenStore } from './tokens.js';
import {
  type Body,
  optionalInt,
  optionalString,
  ParamError,
  parseDate,
  parseDateTime,
  requireInt,
  requireString,
} from './validation.js';

/** The spec shows only 1000, 1001 and "1000,<text>"; the rest are the simulator's choice. */
export const CODES = {
  success: '1000',
  ticketSuccess: '1000,正常返回',
  /** Any rejected parameter, on every endpoint. */
  failure: '1001',
  token: '1002',
  badRequest: '1003',
  notFound: '1004',
  methodNotAllowed: '1005',
  serverError: '1500',
} as const;

const DOC_NOT_FOUND_RET_CODE = '100001';
const TOKEN_EXPIRE_HOURS = { min: 1, max: 24, default: 2 } as const;

export class TokenRejected extends Error {
  override readonly name = 'TokenRejected';
}

export interface HandlerContext {
  appId: string;
  appKey: string;
  tokenTtlSeconds: number;
  now: () => Date;
  tokens: TokenStore;
  robots: Robots;
  robot: Robot;
  statistics: Statistics;
  tickets: readonly StoredTicket[];
  counters: Record<string, number>;
}

export function count(context: HandlerContext, name: string): void {
  context.counters[name] = (context.counters[name] ?? 0) + 1;
}

/** Calls 1 and 2 also declare its length as 40. */
function checkToken(context: HandlerContext, body: Body, limitLength: boolean): void {
  const token = body.access_token;
  if (typeof token !== 'string' || token === '') throw new TokenRejected('access_token is missing');
  if (limitLength && token.length > ACCESS_TOKEN_MAX_LENGTH) {
    throw new ParamError(`access_token must be at most ${ACCESS_TOKEN_MAX_LENGTH} characters`);
  }
  if (!context.tokens.isValid(token)) throw new TokenRejected('access_token check failed');
}

export function getAccessToken(context: HandlerContext, body: Body): Body {
  const appId = requireString(body, 'appId');
  const createTime = body.createTime;
  const createTimeValid =
    (typeof createTime === 'string' && createTime !== '') ||
    (typeof createTime === 'number' && Number.isInteger(createTime) && createTime >= 0);
  if (!createTimeValid) throw new ParamError('createTime is required (a timestamp)');
  const sign = requireString(body, 'sign');
  const expire = optionalInt(body, 'expire', { min: TOKEN_EXPIRE_HOURS.min, max: TOKEN_EXPIRE_HOURS.max });
  if (appId !== context.appId) return { code: CODES.failure, msg: 'appId is unknown' };
  // The sign is documented as lowercase hex, so an upper-case sign is a client bug.
  if (sign !== md5Hex(`${appId}${context.appKey}${String(createTime)}`)) {
    return { code: CODES.failure, msg: 'sign check failed' };
  }
  const ttlSeconds = expire === undefined ? context.tokenTtlSeconds : expire * 3600;
  count(context, 'tokensIssued');
  return {
    code: CODES.success,
    data: { access_token: context.tokens.issue(ttlSeconds), expire: ttlSeconds / 3600 },
  };
}

export function ticketList(context: HandlerContext, body: Body): Body {
  checkToken(context, body, true);
  const timestamp = { min: 0, max: 99_999_999_999 };
  const createStartTime = requireInt(body, 'createStartTime', timestamp);
  const createEndTime = requireInt(body, 'createEndTime', timestamp);
  const window = createEndTime - createStartTime;
  if (window < 0) throw new ParamError('createEndTime must not be before createStartTime');
  if (window > MAX_TICKET_WINDOW_SECONDS) {
    throw new ParamError(
      `the creation window must not exceed one month (${MAX_TICKET_WINDOW_SECONDS} seconds)`,
    );
  }
  const page = queryTickets(context.tickets, {
    createStartTime,
    createEndTime,
    ticketStatus: optionalInt(body, 'ticketStatus', { oneOf: TICKET_STATUSES }),
    ticketFrom: optionalInt(body, 'ticketFrom', { oneOf: TICKET_SOURCES }),
    ticketTypeId: optionalString(body, 'ticketTypeId', { max: 36 }),
    pageNo: optionalInt(body, 'pageNo', { min: 1, max: 9999 }) ?? 1,
    pageSize: optionalInt(body, 'pageSize', { min: 1, max: MAX_PAGE_SIZE }) ?? DEFAULT_PAGE_SIZE,
  });
  count(context, 'ticketQueries');
  return { code: CODES.ticketSuccess, ...page };
}

export function agentList(context: HandlerContext, body: Body): Body {
  checkToken(context, body, true);
  const action = requireString(body, 'action', { max: 36 });
  if (action !== AGENT_LIST_ACTION) throw new ParamError(`action must be ${AGENT_LIST_ACTION}`);
  const method = requireString(body, 'method', { max: 10 });
  if (method !== AGENT_LIST_METHOD) throw new ParamError(`method must be ${AGENT_LIST_METHOD}`);
  // The spec declares `data` a string of at most 4000 characters but shows an object: accept both.
  const raw = body.data;
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw ?? null);
  if (text.length > AGENT_LIST_DATA_MAX_LENGTH) {
    throw new ParamError(`data must be at most ${AGENT_LIST_DATA_MAX_LENGTH} characters`);
  }
  let data: unknown = raw;
  if (typeof raw === 'string') {
    try {
      data = JSON.parse(raw);
    } catch {
      throw new ParamError('data must be a JSON object');
    }
  }
  if (!isRecord(data)) throw new ParamError('data must be an object with groupId');
  const groupId = requireString(data, 'groupId', { max: 36 });
  const group = SERVICE_GROUPS.find((candidate) => candidate.groupId === groupId);
  count(context, 'agentQueries');
  return {
    // The agent list is one of the spec's "ticket endpoints", so it answers like a ticket call.
    code: CODES.ticketSuccess,
    // The spec's sample spells these keys with stray spaces: kept so the client's tolerance is exercised.
    data: {
      ' items ': (group?.agents ?? []).map((agent) => ({
        ' serviceId ': agent.serviceId,
        serviceName: agent.serviceName,
      })),
    },
  };
}

type OpenHandler = (context: HandlerContext, data: Body) => Body;

export function openPlatform(context: HandlerContext, body: Body): Body {
  const action = body.action;
  if (typeof action !== 'string' || action === '') throw new ParamError('action is required');
  checkToken(context, body, false);
  const handler = OPEN_HANDLERS[action];
  if (!handler) throw new ParamError(`unknown action ${action}`);
  const data = body.data;
  if (!isRecord(data)) throw new ParamError('data must be an object');
  return handler(context, data);
}

function robotAsk(context: HandlerContext, data: Body): Body {
  const sysNum = requireString(data, 'sysNum');
  const partnerId = requireString(data, 'partnerId');
  const question = requireString(data, 'question');
  optionalString(data, 'uname', { allowEmpty: true });
  optionalInt(data, 'source', { oneOf: [0, 1, 2, 3, 4] });
  const robotFlag = optionalInt(data, 'robotFlag', { min: 0 });
  const questionFlag = optionalInt(data, 'questionFlag', { oneOf: [0, 1] });
  const requestText = optionalString(data, 'requestText', { allowEmpty: true });
  if (questionFlag === 1 && !requestText) {
    throw new ParamError('requestText must carry the docId when questionFlag is 1');
  }
  const answer = context.robot.ask({
    sysNum,
    partnerId,
    question,
    robotFlag,
    clickedDocId: questionFlag === 1 ? requestText : undefined,
  });
  context.statistics.recordAsk(context.now().getTime(), answer.sessionNew);
  count(context, 'asks');
  return { code: CODES.success, data: answer };
}

/** The flags an edit may set, each with the values the spec allows, in the order they are checked. */
const DOC_FLAGS = [
  ['robotFlag', [0, 1]],
  ['matchFlag', [0, 1, 2]],
  ['usedFlag', [0, 1]],
  ['auditStatus', [1, 2]],
] as const;

function updateRobotDoc(context: HandlerContext, data: Body): Body {
  const docId = requireString(data, 'docId');
  const changes: Partial<Omit<KnowledgeEntry, 'docId'>> = {};
  for (const [field, oneOf] of DOC_FLAGS) {
    const value = optionalInt(data, field, { oneOf });
    if (value !== undefined) changes[field] = value;
  }
  for (const field of ['questionId', 'answerId', 'questionTypeId'] as const) {
    const value = optionalString(data, field, { allowEmpty: true });
    if (value !== undefined) changes[field] = value;
  }
  for (const field of ['questionTitle', 'answerDesc'] as const) {
    const value = optionalString(data, field);
    if (value !== undefined) changes[field] = value;
  }
  for (const field of ['effectTime', 'invalidTime'] as const) {
    const value = optionalString(data, field);
    if (value === undefined) continue;
    if (parseDateTime(value) === undefined)
      throw new ParamError(`${field} must be formatted yyyy-MM-dd HH:mm:ss`);
    changes[field] = value;
  }
  // robotFlag here is the owning base (0 or 1), not a robot: the docId alone says whose entry it is.
  const knowledgeBase = context.robots.holding(docId);
  const entry = knowledgeBase?.get(docId);
  if (!knowledgeBase || !entry)
    return { code: CODES.success, data: { retCode: DOC_NOT_FOUND_RET_CODE, retMsg: 'doc not found' } };
  const merged = { ...entry, ...changes };
  if (merged.auditStatus === 2) {
    const effect = parseDateTime(merged.effectTime);
    const invalid = parseDateTime(merged.invalidTime);
    if (effect === undefined || invalid === undefined) {
      throw new ParamError('effectTime and invalidTime are required when auditStatus is 2');
    }
    if (effect >= invalid) throw new ParamError('invalidTime must be after effectTime');
  }
  knowledgeBase.update(docId, changes);
  count(context, 'docUpdates');
  return { code: CODES.success, data: { retCode: '000000' } };
}

function robotFeedback(context: HandlerContext, data: Body): Body {
  const uid = optionalString(data, 'uid', { allowEmpty: true });
  const cid = requireString(data, 'cid');
  requireString(data, 'docId');
  requireString(data, 'docName');
  requireInt(data, 'robotFlag', { min: 0 });
  requireInt(data, 'status', { oneOf: [1, 2] });
  const msgId = requireString(data, 'msgId');
  const sysNum = optionalString(data, 'sysNum');
  const partnerId = optionalString(data, 'partnerId');
  const from = optionalInt(data, 'from', { oneOf: [0, 1, 2] });
  for (const [field, value] of Object.entries({ sysNum, partnerId, from })) {
    if (!uid && value === undefined) throw new ParamError(`${field} is required when uid is absent`);
  }
  const message = context.robot.message(msgId);
  const expectedUid =
    uid || (sysNum !== undefined && partnerId !== undefined ? context.robot.uidFor(sysNum, partnerId) : '');
  const known = message !== undefined && message.cid === cid && message.uid === expectedUid;
  if (!known) {
    count(context, 'feedbackRejected');
    return { code: CODES.success, data: { status: 0 } };
  }
  // Not fed to wb_human_satisfaction: that figure is about human agents, not robot answers.
  count(context, 'feedback');
  return { code: CODES.success, data: { status: 1 } };
}

/** endDate is declared an integer, so yyyyMMdd is accepted too. */
function dateRange(data: Body): { startMs: number; endMs: number } {
  const startText = requireString(data, 'startDate');
  const startMs = parseDate(startText);
  if (startMs === undefined) throw new ParamError('startDate must be a real date formatted yyyy-MM-dd');
  const end = data.endDate;
  let endMs: number | undefined;
  if (typeof end === 'string') endMs = parseDate(end);
  else if (typeof end === 'number' && Number.isInteger(end) && end >= 10_000_000 && end <= 99_999_999) {
    const digits = String(end);
    endMs = parseDate(`${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`);
  } else if (end === undefined || end === null) throw new ParamError('endDate is required');
  if (endMs === undefined)
    throw new ParamError('endDate must be a real date formatted yyyy-MM-dd (or yyyyMMdd)');
  if (startMs > endMs) throw new ParamError('startDate must not be after endDate');
  return { startMs, endMs };
}

function statisticsOf(figures: 'sessionMessages' | 'humanSatisfaction'): OpenHandler {
  return (context, data) => {
    const { startMs, endMs } = dateRange(data);
    count(context, 'statisticsQueries');
    return { code: CODES.success, data: { item: context.statistics[figures](startMs, endMs) } };
  };
}

const OPEN_HANDLERS: Record<string, OpenHandler | undefined> = {
  [OPEN_ACTIONS.robotAsk]: robotAsk,
  [OPEN_ACTIONS.docUpdate]: updateRobotDoc,
  [OPEN_ACTIONS.feedback]: robotFeedback,
  [OPEN_ACTIONS.sessionMessages]: statisticsOf('sessionMessages'),
  [OPEN_ACTIONS.humanSatisfaction]: statisticsOf('humanSatisfaction'),
};
