// The simulated FAQ robot: one session per user across robots, as the platform's uid and cid are.
import { type KnowledgeEntry, type Language, languageOf } from './knowledge-base.js';
import { md5Hex } from './prng.js';
import { DEFAULT_ROBOT_FLAG, type RobotDesk, type Robots } from './robots.js';

/** The spec does not list them; public clients read 3 and 4 so. */
const ANSWER_TYPES = { direct: 1, suggested: 2, unknown: 3, guide: 4 } as const;

/** As platform sessions commonly do. */
const SESSION_IDLE_MS = 30 * 60 * 1000;

export interface Suggestion {
  question: string;
  answer: string;
  docId: string;
}

export interface RobotAnswer {
  answer: string;
  suggestions: Suggestion[];
  question: string;
  docId: string;
  uid: string;
  cid: string;
  msgId: string;
  stripe: string;
  robotFlag: number;
  answerType: number;
  sessionNew: boolean;
}

export interface AskInput {
  sysNum: string;
  partnerId: string;
  question: string;
  robotFlag?: number | undefined;
  /** questionFlag 1. */
  clickedDocId?: string | undefined;
}

export interface AnsweredMessage {
  msgId: string;
  uid: string;
  cid: string;
  docId: string;
  answerType: number;
  at: number;
}

const GREETINGS = new Set([
  'hello',
  'hi',
  'hey',
  'hello there',
  'hi there',
  'good morning',
  'good afternoon',
  'good evening',
  '你好',
  '您好',
  '嗨',
  '哈喽',
  '在吗',
  '早上好',
]);

const STOPWORDS = new Set([
  'the',
  'and',
  'for',
  'how',
  'what',
  'when',
  'where',
  'who',
  'why',
  'can',
  'you',
  'your',
  'my',
  'mine',
  'our',
  'is',
  'are',
  'was',
  'do',
  'does',
  'did',
  'get',
  'with',
  'about',
  'this',
  'that',
  'have',
  'has',
  'not',
  'from',
  'into',
  'there',
  'please',
  'help',
  'need',
  'want',
  'should',
  'would',
  'could',
  'will',
  'any',
  'some',
]);

const TEXTS: Record<Language, { unknown: string; stripeUnknown: string; stripeRelated: string }> = {
  en: {
    unknown:
      "Sorry, I don't know the answer to that yet. Try rephrasing it, or pick one of the questions below.",
    stripeUnknown: 'You may want to ask:',
    stripeRelated: 'You may also want to ask:',
  },
  zh: {
    unknown: '抱歉，我暂时无法回答这个问题。请换个说法，或选择下面的问题。',
    stripeUnknown: '你可能想问：',
    stripeRelated: '你可能还想问：',
  },
};

function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, ' ')
    .trim();
}

function words(text: string): string[] {
  return normalize(text)
    .split(' ')
    .filter((word) => /^[a-z0-9-]+$/.test(word) && word.length >= 3 && !STOPWORDS.has(word));
}

/** Whole words for Latin text, substrings for CJK. */
function containsKeyword(text: string, keyword: string): boolean {
  const normalizedKeyword = normalize(keyword);
  if (normalizedKeyword === '') return false;
  if (languageOf(normalizedKeyword) === 'zh')
    return text.replace(/ /g, '').includes(normalizedKeyword.replace(/ /g, ''));
  return ` ${text} `.includes(` ${normalizedKeyword} `);
}

/** 0 = not at all. */
function score(question: string, entry: KnowledgeEntry): number {
  if (entry.matchFlag === 1) return 0;
  let total = 0;
  for (const keyword of entry.keywords) {
    if (containsKeyword(question, keyword)) total += 2 + normalize(keyword).length / 10;
  }
  const title = normalize(entry.questionTitle);
  const compactQuestion = question.replace(/ /g, '');
  const compactTitle = title.replace(/ /g, '');
  if (
    compactQuestion.length >= 2 &&
    (compactQuestion.includes(compactTitle) || compactTitle.includes(compactQuestion))
  ) {
    total += 3;
  }
  if (entry.matchFlag === 2) return total;
  const titleWords = new Set(words(entry.questionTitle));
  for (const word of new Set(words(question))) {
    if (titleWords.has(word)) total += 1;
  }
  return total;
}

/** One shared title word is not enough. */
const MIN_SCORE = 2;

export class Robot {
  /** By uid, which names the partner. */
  private readonly sessions = new Map<string, { cid: string; lastAt: number }>();
  private readonly messages = new Map<string, AnsweredMessage>();
  private readonly issuedIds = { c: 0, m: 0 };

  constructor(
    private readonly robots: Robots,
    private readonly now: () => Date,
  ) {}

  /** So the same partner keeps its uid across sessions and simulators. */
  uidFor(sysNum: string, partnerId: string): string {
    return `u-${md5Hex(`${sysNum}\u0000${partnerId}`).slice(0, 16)}`;
  }

  message(msgId: string): AnsweredMessage | undefined {
    return this.messages.get(msgId);
  }

  ask(input: AskInput): RobotAnswer {
    const nowMs = this.now().getTime();
    const uid = this.uidFor(input.sysNum, input.partnerId);
    const previous = this.sessions.get(uid);
    const sessionNew = previous === undefined || nowMs - previous.lastAt > SESSION_IDLE_MS;
    const cid = sessionNew || previous === undefined ? this.nextId('c') : previous.cid;
    this.sessions.set(uid, { cid, lastAt: nowMs });

    const body = this.answerBody(input, nowMs);
    const msgId = this.nextId('m');
    this.messages.set(msgId, { msgId, uid, cid, docId: body.docId, answerType: body.answerType, at: nowMs });
    return {
      ...body,
      uid,
      cid,
      msgId,
      robotFlag: input.robotFlag ?? DEFAULT_ROBOT_FLAG,
      sessionNew,
    };
  }

  /** Sequential, like the platform's cid (c-…) and msgId (m-…). */
  private nextId(prefix: 'c' | 'm'): string {
    this.issuedIds[prefix] += 1;
    return `${prefix}-${String(this.issuedIds[prefix]).padStart(8, '0')}`;
  }

  private answerBody(
    input: AskInput,
    nowMs: number,
  ): Pick<RobotAnswer, 'answer' | 'suggestions' | 'question' | 'docId' | 'stripe' | 'answerType'> {
    const desk = this.robots.desk(input.robotFlag);
    const language = languageOf(input.question);
    if (!desk) return this.unknown(undefined, input.question, language, nowMs);
    if (input.clickedDocId !== undefined) {
      const entry = desk.knowledgeBase.answerable(input.clickedDocId, nowMs);
      return entry
        ? this.direct(desk, entry, ANSWER_TYPES.direct, [], nowMs)
        : this.unknown(desk, input.question, language, nowMs);
    }
    const question = normalize(input.question);
    if (GREETINGS.has(question)) {
      const unknown = this.unknown(desk, input.question, language, nowMs);
      return { ...unknown, answer: desk.guide[language], answerType: ANSWER_TYPES.guide };
    }
    const { knowledgeBase } = desk;
    const candidates = knowledgeBase.all().filter((entry) => knowledgeBase.isAnswerable(entry, nowMs));
    const exact = candidates.find((entry) => normalize(entry.questionTitle) === question);
    if (exact) return this.direct(desk, exact, ANSWER_TYPES.direct, [], nowMs);
    const ranked = candidates
      .map((entry) => ({ entry, score: score(question, entry) }))
      .filter((candidate) => candidate.score >= MIN_SCORE)
      .sort((left, right) => right.score - left.score);
    const best = ranked[0];
    if (best) {
      const others = ranked.slice(1, 5).map((candidate) => candidate.entry.docId);
      return this.direct(desk, best.entry, ANSWER_TYPES.suggested, others, nowMs);
    }
    return this.unknown(desk, input.question, language, nowMs);
  }

  private direct(
    desk: RobotDesk,
    entry: KnowledgeEntry,
    answerType: number,
    firstSuggestions: string[],
    nowMs: number,
  ) {
    const docIds = [...firstSuggestions, ...entry.related].filter((docId) => docId !== entry.docId);
    const suggestions = this.suggestionsFor(desk, docIds, nowMs);
    return {
      answer: entry.answerDesc,
      suggestions,
      question: entry.questionTitle,
      docId: entry.docId,
      stripe: suggestions.length > 0 ? TEXTS[entry.language].stripeRelated : '',
      answerType,
    };
  }

  /** Nothing matched; an unknown robot number has nothing to suggest either. */
  private unknown(desk: RobotDesk | undefined, question: string, language: Language, nowMs: number) {
    const suggestions = desk ? this.suggestionsFor(desk, desk.popular[language], nowMs) : [];
    return {
      answer: TEXTS[language].unknown,
      suggestions,
      question,
      docId: '',
      stripe: desk ? TEXTS[language].stripeUnknown : '',
      answerType: ANSWER_TYPES.unknown,
    };
  }

  private suggestionsFor(desk: RobotDesk, docIds: readonly string[], nowMs: number): Suggestion[] {
    const suggestions: Suggestion[] = [];
    for (const docId of new Set(docIds)) {
      const entry = desk.knowledgeBase.answerable(docId, nowMs);
      if (entry)
        suggestions.push({ question: entry.questionTitle, answer: entry.answerDesc, docId: entry.docId });
    }
    return suggestions;
  }
}
