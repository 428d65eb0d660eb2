// Wire schemas from shared/spec/open-interface.md, spelled as the spec spells (avgServiceMessge, canpinglv).
import { z } from 'zod';

// ---------------------------------------------------------------- shared pieces

/** yyyy-MM-dd, a real calendar date. */
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** yyyy-MM-dd HH:mm:ss, a real calendar time. */
const DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

function isRealDate(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const dateString = z
  .string()
  .regex(DATE_PATTERN, 'must be formatted yyyy-MM-dd')
  .refine(isRealDate, 'must be a real calendar date');

const dateTimeString = z
  .string()
  .regex(DATE_TIME_PATTERN, 'must be formatted yyyy-MM-dd HH:mm:ss')
  .refine((text) => {
    const [hours, minutes, seconds] = text.slice(11).split(':').map(Number);
    return (
      isRealDate(text) &&
      hours !== undefined &&
      hours < 24 &&
      minutes !== undefined &&
      minutes < 60 &&
      seconds !== undefined &&
      seconds < 60
    );
  }, 'must be a real time');

/** A spec length counted in UTF-16 units, as a Java platform counts (zod's `.max()` counts code points). */
const declared = (max: number) =>
  z.string().refine((text) => text.length <= max, `must be at most ${max} characters`);

/** One month, as the ticket list's creation window rule counts it (see README: 30 days). */
export const MAX_TICKET_WINDOW_SECONDS = 30 * 24 * 60 * 60;
export const DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_SIZE = 50;
export const ACCESS_TOKEN_MAX_LENGTH = 40;
export const AGENT_LIST_DATA_MAX_LENGTH = 4000;

/** Seconds timestamps are declared with length 11. */
const secondsTimestamp = z
  .number()
  .int('must be a whole number of seconds')
  .min(0, 'must not be negative')
  .max(99_999_999_999, 'must be a seconds timestamp of at most 11 digits');

// Response integers: the spec declares them integer, but a tolerant reader accepts "3" as 3.
const looseInt = z.preprocess(
  (value) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value),
  z.number().int(),
);
const looseNumber = z.preprocess(
  (value) =>
    typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value,
  z.number(),
);
const looseString = z.preprocess(
  (value) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value),
  z.string(),
);

/** Real platforms send null for a value they do not have: null and a missing key both read as undefined. */
function absent<T extends z.ZodType>(schema: T) {
  return schema
    .nullish()
    .transform((value) => value ?? undefined)
    .optional();
}

// ---------------------------------------------------------------- enumerations

export const TICKET_STATUSES = [0, 1, 2, 3, 99, 98] as const;
export const TICKET_SOURCES = [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17] as const;
/** Robot ask `source`: 0 PC, 1 WeChat-type, 2 app, 3 microblog, 4 mobile website. */
const USER_SOURCES = [0, 1, 2, 3, 4] as const;
/** 1 clicked (requestText is a docId), 0 typed (requestText is the question). */
const QUESTION_FLAGS = [0, 1] as const;
const MATCH_FLAGS = [0, 1, 2] as const;
const USED_FLAGS = [0, 1] as const;
const AUDIT_STATUSES = [1, 2] as const;
/** Knowledge base owner: 0 public, 1 the robot's own. */
const DOC_ROBOT_FLAGS = [0, 1] as const;
/** Feedback rating: 1 thumbs up, 2 thumbs down. */
const FEEDBACK_STATUSES = [1, 2] as const;
/** Feedback `from`: 0 open platform, 1 web or SDK, 2 WeChat-type channel. */
const FEEDBACK_FROMS = [0, 1, 2] as const;

const oneOf = <T extends readonly number[]>(values: T, what: string) =>
  z
    .number()
    .int()
    .refine(
      (value): value is T[number] => values.includes(value),
      `must be one of ${values.join(', ')} (${what})`,
    );

// ---------------------------------------------------------------- 1. ticket list

export const ticketListRequestSchema = z
  .object({
    createStartTime: secondsTimestamp,
    createEndTime: secondsTimestamp,
    ticketStatus: oneOf(TICKET_STATUSES, 'ticket status').optional(),
    ticketFrom: oneOf(TICKET_SOURCES, 'ticket source').optional(),
    ticketTypeId: declared(36).optional(),
    pageNo: z.number().int().min(1, 'must be 1 or more').max(9999, 'must be at most 4 digits').default(1),
    pageSize: z
      .number()
      .int()
      .min(1, 'must be 1 or more')
      .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
      .default(DEFAULT_PAGE_SIZE),
  })
  .strict();
export type TicketListRequest = z.input<typeof ticketListRequestSchema>;

export const ticketSchema = z
  .object({
    ticketId: looseString,
    ticketCode: absent(looseNumber),
    ticketTitle: absent(z.string()),
    ticketContent: absent(z.string()),
    ticketLevel: absent(looseInt),
    ticketStatus: absent(looseInt),
    startType: absent(looseInt),
    startName: absent(z.string()),
    dealUserName: absent(z.string()),
    dealGroupName: absent(z.string()),
    createTime: absent(looseNumber),
    updateTime: absent(looseNumber),
    ticketTypeName: absent(z.string()),
    ticketFrom: absent(looseInt),
  })
  .loose();
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketListResponseSchema = z
  .object({
    code: looseString,
    data: z
      .array(ticketSchema)
      .nullish()
      .transform((tickets) => tickets ?? []),
    pageCount: absent(looseInt),
    totalCount: absent(looseInt),
    pageNo: absent(looseInt),
    pageSize: absent(looseInt),
  })
  .loose();
export type TicketPage = {
  tickets: Ticket[];
  pageNo: number;
  pageSize: number;
  pageCount: number;
  totalCount: number;
};

// ---------------------------------------------------------------- 2. agent list

export const agentListRequestSchema = z
  .object({
    groupId: declared(36).min(1, 'must not be empty'),
  })
  .strict();
export type AgentListRequest = z.input<typeof agentListRequestSchema>;

export const agentSchema = z.object({ serviceId: looseString, serviceName: absent(z.string()) }).loose();
export type Agent = z.infer<typeof agentSchema>;

export const agentListResponseSchema = z
  .object({
    code: looseString,
    data: z
      .object({
        items: z
          .array(agentSchema)
          .nullish()
          .transform((items) => items ?? []),
      })
      .loose()
      .nullish(),
  })
  .loose();

// ---------------------------------------------------------------- 3. robot ask

// Compiled: the answer path's shapes, read on every question (docs/decisions/019).
export const robotAskRequestSchema = z.compile(
  z
    .object({
      sysNum: z.string().min(1, 'must not be empty'),
      partnerId: z.string().min(1, 'must not be empty'),
      question: z.string().min(1, 'must not be empty'),
      uname: z.string().optional(),
      source: oneOf(USER_SOURCES, 'user channel').optional(),
      robotFlag: z.number().int().min(0).optional(),
      questionFlag: oneOf(QUESTION_FLAGS, 'question type').optional(),
      requestText: z.string().optional(),
    })
    .strict()
    .superRefine((request, context) => {
      if (request.questionFlag === 1 && !request.requestText) {
        context.addIssue({
          code: 'custom',
          path: ['requestText'],
          message: 'must carry the docId when questionFlag is 1',
        });
      }
    }),
);
export type RobotAskRequest = z.input<typeof robotAskRequestSchema>;

export const suggestionSchema = z
  .object({
    question: looseString.catch(''),
    answer: looseString.optional().catch(undefined),
    docId: looseString.optional().catch(undefined),
  })
  .loose();

export const robotAnswerSchema = z.compile(
  z
    .object({
      answer: looseString.nullish().transform((answer) => answer ?? ''),
      suggestions: z
        .array(suggestionSchema)
        .nullish()
        .transform((suggestions) =>
          (suggestions ?? []).filter((suggestion) => suggestion.question.trim() !== ''),
        ),
      question: absent(looseString),
      docId: absent(looseString),
      uid: absent(looseString),
      cid: absent(looseString),
      msgId: absent(looseString),
      stripe: absent(looseString),
      robotFlag: absent(looseInt),
      answerType: absent(looseInt),
      sessionNew: absent(z.boolean()),
    })
    .loose(),
);
export type RobotAnswer = z.infer<typeof robotAnswerSchema>;

/** Public clients of the platform treat answerType 3 as "unknown question" and 4 as a guide answer. */
export const ANSWER_TYPE_UNKNOWN = 3;

// ---------------------------------------------------------------- 4. knowledge-base update

export const robotDocUpdateRequestSchema = z
  .object({
    docId: z.string().min(1, 'must not be empty'),
    robotFlag: oneOf(DOC_ROBOT_FLAGS, 'knowledge base').optional(),
    questionId: z.string().optional(),
    // The platform refuses an empty standard question or answer (1001), so it is refused before sending.
    questionTitle: z.string().min(1, 'must not be empty').optional(),
    matchFlag: oneOf(MATCH_FLAGS, 'match mode').optional(),
    answerId: z.string().optional(),
    answerDesc: z.string().min(1, 'must not be empty').optional(),
    questionTypeId: z.string().optional(),
    usedFlag: oneOf(USED_FLAGS, 'entry state').optional(),
    auditStatus: oneOf(AUDIT_STATUSES, 'validity').optional(),
    effectTime: dateTimeString.optional(),
    invalidTime: dateTimeString.optional(),
  })
  .strict()
  .superRefine((request, context) => {
    if (request.auditStatus === 2 && (!request.effectTime || !request.invalidTime)) {
      context.addIssue({
        code: 'custom',
        path: [request.effectTime ? 'invalidTime' : 'effectTime'],
        message: 'is required when auditStatus is 2 (valid for a specified period)',
      });
    }
    if (request.effectTime && request.invalidTime && request.effectTime >= request.invalidTime) {
      context.addIssue({ code: 'custom', path: ['invalidTime'], message: 'must be after effectTime' });
    }
  });
export type RobotDocUpdateRequest = z.input<typeof robotDocUpdateRequestSchema>;

/** The knowledge update's success status inside `data`. */
export const DOC_UPDATE_SUCCESS_RET_CODE = '000000';

export const robotDocUpdateResponseDataSchema = z
  .object({ retCode: looseString, retMsg: absent(looseString) })
  .loose();

// ---------------------------------------------------------------- 5. robot feedback

export const robotFeedbackRequestSchema = z
  .object({
    // An empty uid is no uid: the sysNum/partnerId/from rule applies, and it is not sent.
    uid: z
      .string()
      .optional()
      .transform((uid) => (uid === '' ? undefined : uid)),
    cid: z.string().min(1, 'must not be empty'),
    docId: z.string().min(1, 'must not be empty'),
    docName: z.string().min(1, 'must not be empty'),
    robotFlag: z.number().int().min(0),
    status: oneOf(FEEDBACK_STATUSES, 'rating'),
    msgId: z.string().min(1, 'must not be empty'),
    sysNum: z.string().min(1).optional(),
    partnerId: z.string().min(1).optional(),
    from: oneOf(FEEDBACK_FROMS, 'customer origin').optional(),
  })
  .strict()
  .superRefine((request, context) => {
    if (request.uid) return;
    for (const field of ['sysNum', 'partnerId', 'from'] as const) {
      if (request[field] === undefined) {
        context.addIssue({ code: 'custom', path: [field], message: 'is required when no uid is given' });
      }
    }
  });
export type RobotFeedbackRequest = z.input<typeof robotFeedbackRequestSchema>;

export const robotFeedbackResponseDataSchema = z.object({ status: looseInt }).loose();

// ---------------------------------------------------------------- 6 and 7. statistics

export const statisticsRequestSchema = z
  .object({ startDate: dateString, endDate: dateString })
  .strict()
  .refine((request) => request.startDate <= request.endDate, {
    path: ['endDate'],
    message: 'must not be before startDate',
  });
export type StatisticsRequest = z.input<typeof statisticsRequestSchema>;

const optionalInt = absent(looseInt);
const optionalDouble = absent(looseNumber);
const optionalText = absent(looseString);

export const sessionMessageStatisticsSchema = z
  .object({
    totalMessage: optionalInt,
    robotMessage: optionalInt,
    totalCustomerMessage: optionalInt,
    serviceMessage: optionalInt,
    avgMessage: optionalDouble,
    avgCustomerMessage: optionalDouble,
    avgServiceMessge: optionalDouble,
    customerToRobotMessage: optionalInt,
    robotAvgMessage: optionalDouble,
    robotAvgCustomerMessage: optionalDouble,
    totalHumanMessage: optionalInt,
    customerToServiceMessage: optionalInt,
    answerThan: optionalText,
    humanAvgMessage: optionalDouble,
    humanAvgCustomerMessage: optionalDouble,
    humanAvgServiceMessage: optionalDouble,
    serviceWord: optionalInt,
    avgServiceWord: optionalDouble,
    serviceOfflineNum: optionalInt,
  })
  .loose();
export type SessionMessageStatistics = z.infer<typeof sessionMessageStatisticsSchema>;

export const humanSatisfactionStatisticsSchema = z
  .object({
    effectSessionCount: optionalInt,
    totalTimes: optionalInt,
    canpinglv: optionalText,
    initiative: optionalInt,
    customActiveEvRatio: optionalText,
    serviceInvEvRatio: optionalText,
    invites: optionalInt,
    solvedCount: optionalInt,
    solved: optionalInt,
    notSolved: optionalInt,
    solvedLv: optionalText,
    avgNum: optionalText,
    good: optionalInt,
    goodLv: optionalText,
    middle: optionalInt,
    middleLv: optionalText,
    bad: optionalInt,
    badLv: optionalText,
    score4: optionalInt,
    score3: optionalInt,
    score2: optionalInt,
    score1: optionalInt,
  })
  .loose();
export type HumanSatisfactionStatistics = z.infer<typeof humanSatisfactionStatisticsSchema>;

export const statisticsResponseDataSchema = <T extends z.ZodType>(item: T) =>
  z.object({ item: item }).loose();

// ---------------------------------------------------------------- envelopes

/** Every response is JSON with a string field `code`; open-platform answers carry `data`. */
export const openEnvelopeSchema = z.compile(
  z.object({ code: looseString, data: z.unknown().optional() }).loose(),
);

export const OPEN_SUCCESS_CODE = '1000';
/** A comma, or the full-width comma Chinese platforms write in "1000，正常返回". */
export const TICKET_CODE_SEPARATOR = /[,，]/;

/** Ticket calls succeed with "1000" followed by a comma (either width) and a short text. */
export function isTicketSuccessCode(code: string): boolean {
  return code === '1000' || code.startsWith('1000,') || code.startsWith('1000，');
}

export const OPEN_ACTIONS = {
  robotAsk: 'chat_user_robot_ask',
  docUpdate: 'update_robot_doc',
  feedback: 'robot_feedback',
  sessionMessages: 'wb_session_message',
  humanSatisfaction: 'wb_human_satisfaction',
} as const;

export const AGENT_LIST_ACTION = 'queryServiceList';
export const AGENT_LIST_METHOD = 'get';
export const OPEN_API_PATH = '/open/platform/api.json';
export const TOKEN_PATH = '/open/platform/getAccessToken.json';
export const TICKET_LIST_PATH = '/ws-open/ticket/getTicketInfoList';
/** The path the spec's sample request uses; kept so an operator can switch to it. */
export const TICKET_LIST_SAMPLE_PATH = '/ws-open/ticket/getTicketList';
export const AGENT_LIST_PATH = '/ws-open/ticket/ticket_api';
