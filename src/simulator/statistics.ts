// Statistics: a seeded daily baseline, plus the asks this simulator has seen.
import { createPrng, hashSeed, randomInt } from './prng.js';
import { DAY_MS, formatDate, startOfUtcDay } from './validation.js';

/** Never in the future. */
const STATISTICS_HISTORY_DAYS = 366;

const EMPTY = {
  robotSessions: 0,
  humanSessions: 0,
  customerToRobot: 0,
  robotMessages: 0,
  customerToService: 0,
  serviceMessages: 0,
  serviceWords: 0,
  serviceOffline: 0,
  initiative: 0,
  invites: 0,
  solved: 0,
  notSolved: 0,
  score4: 0,
  score3: 0,
  score2: 0,
  score1: 0,
};

type DayCounts = typeof EMPTY;

function baselineDay(date: string, seed: string): DayCounts {
  const random = createPrng(hashSeed(`stats:${seed}${date}`));
  const robotSessions = randomInt(random, 20, 60);
  const humanSessions = randomInt(random, 5, 20);
  const customerToRobot = robotSessions * randomInt(random, 2, 4);
  const customerToService = humanSessions * randomInt(random, 4, 7);
  const serviceMessages = humanSessions * randomInt(random, 5, 8);
  // Fewer evaluations than human sessions, as on a real day.
  const score4 = randomInt(random, 1, Math.ceil(humanSessions * 0.4));
  const score3 = randomInt(random, 0, Math.floor(humanSessions * 0.2));
  const score2 = randomInt(random, 0, Math.floor(humanSessions * 0.1));
  const score1 = randomInt(random, 0, Math.floor(humanSessions * 0.1));
  const rated = score4 + score3 + score2 + score1;
  const initiative = Math.floor(rated / 3);
  const solved = score4 + score3;
  return {
    robotSessions,
    humanSessions,
    customerToRobot,
    robotMessages: customerToRobot + robotSessions,
    customerToService,
    serviceMessages,
    serviceWords: serviceMessages * randomInt(random, 12, 25),
    serviceOffline: randomInt(random, 0, 3),
    initiative,
    invites: rated - initiative,
    solved,
    notSolved: score2 + score1,
    score4,
    score3,
    score2,
    score1,
  };
}

function add(into: DayCounts, counts: Partial<DayCounts>): void {
  for (const [key, value] of Object.entries(counts) as [keyof DayCounts, number][]) into[key] += value;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const ratio = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
const percent = (part: number, whole: number) => `${(ratio(part, whole) * 100).toFixed(2)}%`;

export class Statistics {
  private readonly seen = new Map<string, DayCounts>();
  private readonly firstDayMs: number;

  /** `seed` tells one platform's figures from another's; empty, the same as every simulator's. */
  constructor(
    private readonly now: () => Date,
    startedAtMs: number,
    private readonly seed = '',
  ) {
    this.firstDayMs = startOfUtcDay(startedAtMs - STATISTICS_HISTORY_DAYS * DAY_MS);
  }

  /** Robot-answer feedback is not recorded: wb_human_satisfaction rates human agents. */
  recordAsk(atMs: number, sessionNew: boolean): void {
    const date = formatDate(atMs);
    const counts = this.seen.get(date) ?? { ...EMPTY };
    this.seen.set(date, counts);
    add(counts, {
      customerToRobot: 1,
      robotMessages: 1,
      robotSessions: sessionNew ? 1 : 0,
    });
  }

  /** Both UTC dates. */
  private totals(startMs: number, endMs: number): DayCounts {
    const totals = { ...EMPTY };
    const todayMs = startOfUtcDay(this.now().getTime());
    const from = Math.max(startMs, this.firstDayMs);
    const to = Math.min(endMs, todayMs);
    for (let dayMs = from; dayMs <= to; dayMs += DAY_MS)
      add(totals, baselineDay(formatDate(dayMs), this.seed));
    for (const [date, counts] of this.seen) {
      const dayMs = Date.parse(date);
      if (dayMs >= startMs && dayMs <= endMs) add(totals, counts);
    }
    return totals;
  }

  sessionMessages(startMs: number, endMs: number): Record<string, number | string> {
    const t = this.totals(startMs, endMs);
    const sessions = t.robotSessions + t.humanSessions;
    const totalCustomerMessage = t.customerToRobot + t.customerToService;
    const totalHumanMessage = t.customerToService + t.serviceMessages;
    const totalMessage = t.robotMessages + totalCustomerMessage + t.serviceMessages;
    return {
      totalMessage,
      robotMessage: t.robotMessages,
      totalCustomerMessage,
      serviceMessage: t.serviceMessages,
      avgMessage: round2(ratio(totalMessage, sessions)),
      avgCustomerMessage: round2(ratio(totalCustomerMessage, sessions)),
      avgServiceMessge: round2(ratio(t.serviceMessages, sessions)),
      customerToRobotMessage: t.customerToRobot,
      robotAvgMessage: round2(ratio(t.robotMessages + t.customerToRobot, t.robotSessions)),
      robotAvgCustomerMessage: round2(ratio(t.customerToRobot, t.robotSessions)),
      totalHumanMessage,
      customerToServiceMessage: t.customerToService,
      answerThan: percent(t.robotMessages + t.serviceMessages, totalCustomerMessage),
      humanAvgMessage: round2(ratio(totalHumanMessage, t.humanSessions)),
      humanAvgCustomerMessage: round2(ratio(t.customerToService, t.humanSessions)),
      humanAvgServiceMessage: round2(ratio(t.serviceMessages, t.humanSessions)),
      serviceWord: t.serviceWords,
      avgServiceWord: round2(ratio(t.serviceWords, t.humanSessions)),
      serviceOfflineNum: t.serviceOffline,
    };
  }

  humanSatisfaction(startMs: number, endMs: number): Record<string, number | string> {
    const t = this.totals(startMs, endMs);
    const effectSessionCount = t.humanSessions;
    const totalTimes = t.initiative + t.invites;
    const rated = t.score4 + t.score3 + t.score2 + t.score1;
    const good = t.score4 + t.score3;
    const middle = t.score2;
    const bad = t.score1;
    const scoreSum = 4 * t.score4 + 3 * t.score3 + 2 * t.score2 + t.score1;
    return {
      effectSessionCount,
      totalTimes,
      canpinglv: percent(totalTimes, effectSessionCount),
      initiative: t.initiative,
      customActiveEvRatio: percent(t.initiative, totalTimes),
      serviceInvEvRatio: percent(t.invites, totalTimes),
      invites: t.invites,
      solvedCount: t.solved + t.notSolved,
      solved: t.solved,
      notSolved: t.notSolved,
      solvedLv: percent(t.solved, t.solved + t.notSolved),
      avgNum: ratio(scoreSum, rated).toFixed(2),
      good,
      goodLv: percent(good, rated),
      middle,
      middleLv: percent(middle, rated),
      bad,
      badLv: percent(bad, rated),
      score4: t.score4,
      score3: t.score3,
      score2: t.score2,
      score1: t.score1,
    };
  }
}
