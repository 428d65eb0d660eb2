// The slash command's words: the subcommand, and the filter typed after `tickets`.
import {
  checkFilter,
  DEFAULT_TICKET_DAYS,
  type FilterResult,
  isCategoryId,
  isTicketSource,
  isTicketStatus,
  type TicketSource,
  type TicketStatus,
} from '../../service-desk/tickets.js';
import { addDays } from '../../util/time-zone.js';

/** Subcommands that need an operator: they show the service desk's own data. */
export type Subcommand =
  | { kind: 'help' }
  | { kind: 'tickets'; words: string[] }
  /** What follows `agents`, spaces evened out: a group's name (several words) or id; '' for none. */
  | { kind: 'agents'; group: string }
  | { kind: 'stats'; dates: string[] };

/** The command's words: anything not understood is a request for help, never an error. */
export function parseSubcommand(text: string): Subcommand {
  const words = text
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  const [name, ...rest] = words;
  switch (name?.toLowerCase()) {
    case 'tickets':
      return { kind: 'tickets', words: rest };
    case 'agents':
      return { kind: 'agents', group: rest.join(' ') };
    case 'stats':
      return { kind: 'stats', dates: rest };
    default:
      return { kind: 'help' };
  }
}

/** One word per status of the spec's table, for typed filters and the help that lists them. */
export const STATUS_WORDS: Readonly<Record<TicketStatus, string>> = {
  0: 'unaccepted',
  1: 'handling',
  2: 'waiting',
  3: 'solved',
  99: 'closed',
  98: 'deleted',
};

/** Words that stand for several statuses: "open" is every status a ticket can still move on from. */
export const STATUS_GROUPS: Readonly<Record<string, readonly TicketStatus[]>> = {
  open: [0, 1, 2],
};

export const SOURCE_WORDS: Readonly<Record<TicketSource, string>> = {
  0: 'ticket-center',
  1: 'pc-message',
  2: 'h5-message',
  3: 'official-account-message',
  4: 'app-message',
  6: 'pc-workbench',
  7: 'customer-center',
  8: 'call-center',
  9: 'official-account-workbench',
  10: 'h5-workbench',
  11: 'app-workbench',
  12: 'email',
  13: 'voice',
  14: 'mini-program-workbench',
  15: 'enterprise-chat-workbench',
  16: 'mini-program-message',
  17: 'enterprise-chat-message',
};

/** `tickets` arguments: up to two dates (one runs to today), `status:`, `source:`, `category:`, any order. */
export function parseTicketArguments(
  words: readonly string[],
  today: string,
  timeZone: string,
): FilterResult {
  const dates: string[] = [];
  const statuses = new Set<TicketStatus>();
  const sources = new Set<TicketSource>();
  let categoryId: string | undefined;
  for (const word of words) {
    const [key, ...rest] = word.split(':');
    const value = rest.join(':');
    switch (rest.length === 0 ? undefined : key?.toLowerCase()) {
      case 'status':
        for (const name of listOf(value)) {
          const status = codeNamed(name, STATUS_WORDS, isTicketStatus);
          const found = STATUS_GROUPS[name] ?? (status === undefined ? undefined : [status]);
          if (!found) return { kind: 'invalid', problem: 'unknown_status', word: name };
          for (const status of found) statuses.add(status);
        }
        break;
      case 'source':
        for (const name of listOf(value)) {
          const found = codeNamed(name, SOURCE_WORDS, isTicketSource);
          if (found === undefined) return { kind: 'invalid', problem: 'unknown_source', word: name };
          sources.add(found);
        }
        break;
      case 'category':
        if (!isCategoryId(value)) return { kind: 'invalid', problem: 'bad_category', word: value };
        categoryId = value;
        break;
      case undefined:
        if (!/^\d{4}-\d{2}-\d{2}$/.test(word)) {
          return { kind: 'invalid', problem: /^\d/.test(word) ? 'not_a_date' : 'not_understood', word };
        }
        if (dates.length === 2) return { kind: 'invalid', problem: 'too_many_dates', word };
        dates.push(word);
        break;
      default:
        return { kind: 'invalid', problem: 'not_understood', word };
    }
  }
  return checkFilter(
    {
      from: dates[0] ?? defaultTicketsFrom(today),
      to: dates[1] ?? today,
      timeZone,
      statuses: [...statuses],
      sources: [...sources],
      categoryId,
    },
    today,
  );
}

/** Where tickets are read from when no date is given: the last days up to `today`, typed or in the modal. */
export function defaultTicketsFrom(today: string): string {
  return addDays(today, -(DEFAULT_TICKET_DAYS - 1));
}

function listOf(value: string): string[] {
  return value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
}

/** The code a word names: the code itself, or its word in `words`. */
function codeNamed<Code extends number>(
  name: string,
  words: Readonly<Record<Code, string>>,
  isCode: (value: number) => value is Code,
): Code | undefined {
  const byNumber = /^\d+$/.test(name) ? Number(name) : Number.NaN;
  if (isCode(byNumber)) return byNumber;
  const entry = Object.entries(words).find(([, word]) => word === name);
  return entry ? (Number(entry[0]) as Code) : undefined;
}
