import { TICKET_SOURCES, TICKET_STATUSES } from '../platform/schemas.js';
import { createPrng, hashSeed, hex, pick, randomInt } from './prng.js';
import { DAY_MS, startOfUtcDay } from './validation.js';

interface SimTicket {
  ticketId: string;
  ticketCode: number;
  ticketTitle: string;
  ticketContent: string;
  ticketLevel: number;
  ticketStatus: number;
  startType: number;
  startName: string;
  dealUserName: string;
  dealGroupName: string;
  createTime: number;
  updateTime: number;
  ticketTypeName: string;
  ticketFrom: number;
}

export interface StoredTicket {
  ticket: SimTicket;
  /** The spec's ticket has no such field, so it is not sent. */
  ticketTypeId: string;
}

interface TicketType {
  id: string;
  name: string;
  titles: readonly string[];
}

export interface ServiceGroup {
  groupId: string;
  groupName: string;
  agents: { serviceId: string; serviceName: string }[];
  /** The kinds of ticket this group handles. */
  ticketTypes: readonly TicketType[];
}

export const SERVICE_GROUPS: readonly ServiceGroup[] = [
  {
    groupId: 'g-it',
    groupName: 'IT Service Desk',
    agents: [
      { serviceId: 's-it-01', serviceName: 'Alice Chen' },
      { serviceId: 's-it-02', serviceName: 'Bob Martin' },
      { serviceId: 's-it-03', serviceName: '王伟' },
      { serviceId: 's-it-04', serviceName: 'Dana Kim' },
    ],
    ticketTypes: [
      {
        id: 'tt-it-network-vpn',
        name: 'IT/Network/VPN',
        titles: ['VPN disconnects every hour', 'Cannot reach the VPN portal'],
      },
      {
        id: 'tt-it-account-password',
        name: 'IT/Account/Password',
        titles: ['Password expired while abroad', '账号被锁定'],
      },
      {
        id: 'tt-it-hardware-laptop',
        name: 'IT/Hardware/Laptop',
        titles: ['Laptop battery swollen', '电脑无法开机'],
      },
      {
        id: 'tt-it-hardware-printer',
        name: 'IT/Hardware/Printer',
        titles: ['Printer on 3F jams', '打印机卡纸'],
      },
    ],
  },
  {
    groupId: 'g-hr',
    groupName: 'HR Service',
    agents: [
      { serviceId: 's-hr-01', serviceName: '李娜' },
      { serviceId: 's-hr-02', serviceName: 'Emma Johnson' },
      { serviceId: 's-hr-03', serviceName: '张敏' },
    ],
    ticketTypes: [
      {
        id: 'tt-hr-leave-annual',
        name: 'HR/Leave/Annual leave',
        titles: ['Annual leave balance wrong', '年假天数不对'],
      },
      {
        id: 'tt-hr-payroll-salary',
        name: 'HR/Payroll/Salary',
        titles: ['Overtime missing from payslip', '工资条有误'],
      },
    ],
  },
  {
    groupId: 'g-finance',
    groupName: 'Finance Service',
    agents: [
      { serviceId: 's-fin-01', serviceName: 'Frank Müller' },
      { serviceId: 's-fin-02', serviceName: '刘洋' },
    ],
    ticketTypes: [
      {
        id: 'tt-fin-expense-claim',
        name: 'Finance/Expense/Claim',
        titles: ['Expense claim stuck in approval', '报销单被退回'],
      },
      {
        id: 'tt-fin-invoice-title',
        name: '财务/发票/开票',
        titles: ['Need an invoice with our tax id', '发票抬头开错了'],
      },
    ],
  },
  {
    // Named in Chinese, as a platform's own groups often are: the charts must draw it, or say it.
    groupId: 'g-facilities',
    groupName: '行政服务',
    agents: [
      { serviceId: 's-fac-01', serviceName: '周杰' },
      { serviceId: 's-fac-02', serviceName: 'Olga Ivanova' },
    ],
    ticketTypes: [
      {
        id: 'tt-fac-office-repair',
        name: '行政/办公室/报修',
        titles: ['Meeting room 5B projector broken', '空调不制冷'],
      },
    ],
  },
];

export const TICKET_TYPES = SERVICE_GROUPS.flatMap((group) =>
  group.ticketTypes.map((type) => ({ ...type, group })),
);

const REQUESTERS = [
  'Grace Lee',
  'Henry Wu',
  '陈静',
  'Ivan Petrov',
  '赵磊',
  'Julia Santos',
  '孙丽',
  'Kenji Sato',
];

const TICKET_HISTORY_DAYS = 182;
/** Six weeks shaped like a real desk's, so a 30-day chart looks like one; older days are sparse. */
const SHAPED_DAYS = 42;

/** A shaped day's tickets: a working day's many, a weekend's few (UTC days). */
function ticketsOn(random: () => number, dayStartMs: number): number {
  const weekday = new Date(dayStartMs).getUTCDay();
  if (weekday === 0 || weekday === 6) return randomInt(random, 1, 3);
  // Mondays bring the weekend's problems.
  return weekday === 1 ? randomInt(random, 12, 16) : randomInt(random, 8, 13);
}

/** Newest first; same input, same tickets. */
export function seedTickets(nowMs: number, seed = ''): StoredTicket[] {
  const random = createPrng(seed === '' ? 20_240_601 : hashSeed(`tickets:${seed}`));
  const tickets: StoredTicket[] = [];
  const todayStartMs = startOfUtcDay(nowMs);
  let index = 0;
  for (let day = 0; day < TICKET_HISTORY_DAYS; day += 1) {
    const dayStartMs = todayStartMs - day * DAY_MS;
    // Today's tickets are the ones created before now.
    const dayLengthMs = day === 0 ? nowMs - dayStartMs : DAY_MS;
    const count = day < SHAPED_DAYS ? ticketsOn(random, dayStartMs) : randomInt(random, 0, 2);
    for (let n = 0; n < count; n += 1) {
      const type = pick(random, TICKET_TYPES);
      const { group } = type;
      const createTime = dayStartMs + Math.floor(random() * dayLengthMs);
      const updateTime = createTime + Math.floor(random() * Math.min(3 * DAY_MS, nowMs - createTime));
      // Every status and source shows in the most recent tickets.
      const ticketStatus = TICKET_STATUSES[index % TICKET_STATUSES.length] ?? 0;
      const ticketFrom = TICKET_SOURCES[index % TICKET_SOURCES.length] ?? 0;
      const startType = randomInt(random, 0, 1);
      const title = pick(random, type.titles);
      const agent = pick(random, group.agents);
      tickets.push({
        ticketTypeId: type.id,
        ticket: {
          ticketId: hex(random, 32),
          ticketCode: 0,
          ticketTitle: title,
          ticketContent: `${title}. Reported via the helpdesk; see the attached details.`,
          ticketLevel: randomInt(random, 0, 3),
          ticketStatus,
          startType,
          startName: startType === 0 ? agent.serviceName : pick(random, REQUESTERS),
          dealUserName: ticketStatus === 0 ? '' : agent.serviceName,
          // Half the tickets not yet accepted are not yet routed to a group either.
          dealGroupName: ticketStatus === 0 && index % 12 === 0 ? '' : group.groupName,
          createTime,
          updateTime,
          ticketTypeName: type.name,
          ticketFrom,
        },
      });
      index += 1;
    }
  }
  tickets.sort((left, right) => right.ticket.createTime - left.ticket.createTime);
  // Like a real sequence.
  const total = tickets.length;
  tickets.forEach((stored, position) => {
    stored.ticket.ticketCode = 100_000 + (total - position);
  });
  return tickets;
}

export interface TicketQuery {
  createStartTime: number;
  createEndTime: number;
  ticketStatus?: number | undefined;
  ticketFrom?: number | undefined;
  ticketTypeId?: string | undefined;
  pageNo: number;
  pageSize: number;
}

export function queryTickets(tickets: readonly StoredTicket[], query: TicketQuery) {
  const matching = tickets.filter(({ ticket, ticketTypeId }) => {
    const createdSeconds = Math.floor(ticket.createTime / 1000);
    return (
      createdSeconds >= query.createStartTime &&
      createdSeconds <= query.createEndTime &&
      (query.ticketStatus === undefined || ticket.ticketStatus === query.ticketStatus) &&
      (query.ticketFrom === undefined || ticket.ticketFrom === query.ticketFrom) &&
      (query.ticketTypeId === undefined || ticketTypeId === query.ticketTypeId)
    );
  });
  const start = (query.pageNo - 1) * query.pageSize;
  return {
    data: matching.slice(start, start + query.pageSize).map(({ ticket }) => ({ ...ticket })),
    pageCount: Math.ceil(matching.length / query.pageSize),
    totalCount: matching.length,
    pageNo: query.pageNo,
    pageSize: query.pageSize,
  };
}
