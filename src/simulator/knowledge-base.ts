// Robot 1's knowledge base (and of questions naming no robot): an employee helpdesk in English and Chinese.
import { parseDateTime } from './validation.js';

export type Language = 'en' | 'zh';

export interface KnowledgeEntry {
  docId: string;
  questionId: string;
  questionTitle: string;
  answerId: string;
  /** HTML as the platform stores it: paragraphs, links, images, line breaks, bold, some raw text. */
  answerDesc: string;
  questionTypeId: string;
  /** 0 smart match, 1 exact match, 2 contains match. */
  matchFlag: number;
  /** 0 enabled, 1 disabled. */
  usedFlag: number;
  /** 1 permanently valid, 2 valid between effectTime and invalidTime. */
  auditStatus: number;
  effectTime?: string;
  invalidTime?: string;
  /** 0 public knowledge base, 1 the robot's own. */
  robotFlag: number;
  related: string[];
  keywords: string[];
  /** Read from the seeded title: an edit does not change it. */
  language: Language;
}

export function languageOf(text: string): Language {
  return /[\u3400-\u9fff]/u.test(text) ? 'zh' : 'en';
}

type Defaulted = 'matchFlag' | 'usedFlag' | 'auditStatus' | 'robotFlag' | 'questionTypeId';

/** Ids, language and defaults are filled in by `entriesFrom`. */
export type Seed = Omit<KnowledgeEntry, Defaulted | 'questionId' | 'answerId' | 'language'> &
  Partial<Pick<KnowledgeEntry, Defaulted>>;

/** Longer than 5,000 characters, for message-splitting tests. */
function travelPolicyAnswer(): string {
  const sections = [
    [
      'Booking',
      'All flights, trains and hotels are booked through the travel portal at https://travel.example.com so that the company can track spend and reach you in an emergency.',
    ],
    [
      'Approval',
      "Every trip needs your manager's approval <b>before</b> you book. International trips also need the approval of your department head at least two weeks ahead.",
    ],
    [
      'Flights',
      'Economy class is the default for flights under six hours. Premium economy is allowed for longer flights; business class needs the approval of a vice president.',
    ],
    [
      'Trains',
      'Standard class is the default. First class is allowed when the fare difference is under 20% or when you travel for more than three hours.',
    ],
    [
      'Hotels',
      'Choose a hotel from the preferred list where one exists. The nightly cap depends on the city; see the <a href="https://intranet.example.com/travel/hotel-caps">hotel cap table</a>.',
    ],
    [
      'Meals',
      'Meals are covered up to the daily per diem of the destination country. Alcohol is never reimbursed, and client dinners follow the entertainment rules.',
    ],
    [
      'Ground transport',
      'Use public transport where practical. Taxis and ride-hailing are fine for early or late trips, or when you carry equipment.\nKeep every receipt.',
    ],
    [
      'Car rental',
      'Rent the smallest car that fits the team and its equipment. Always decline the extra insurance: the company policy already covers it.',
    ],
    [
      'Visas',
      'The travel desk handles visa letters. Apply at least four weeks before departure and check the <strong>passport validity</strong> rules of the destination.',
    ],
    [
      'Safety',
      'Register every international trip with the security team. In an emergency call the 24/7 assistance line printed on the back of your badge.',
    ],
    [
      'Expenses',
      'Submit the expense claim within 30 days of your return, with itemised receipts. Claims older than 90 days are not reimbursed.',
    ],
    [
      'Loyalty points',
      'You may keep airline and hotel loyalty points, but they must never influence the choice of carrier or hotel.',
    ],
    [
      'Changes and cancellations',
      'Cancel unused bookings as soon as you know. No-show fees caused by a late cancellation may be charged back to the department.',
    ],
    [
      'Exceptions',
      'Any exception to this policy needs written approval from Finance before the trip. Send the request to travel@example.com.',
    ],
  ] as const;
  const paragraphs = sections.map(
    ([title, text], index) =>
      `<p><b>${index + 1}. ${title}</b><br>${text} This rule applies to every employee, contractor and intern who travels on company business, whatever the destination, the duration of the trip or the budget that pays for it. When in doubt, ask the travel desk before you spend.</p>`,
  );
  return [
    '<p>This is the complete <strong>travel policy</strong> of the company. Please read it in full before your first business trip.</p>',
    '<p><img src="https://assets.example.com/helpdesk/travel-banner.png" alt="Travel policy"></p>',
    ...paragraphs,
    '<p>Questions? Ask the travel desk: https://travel.example.com/help or <a href="mailto:travel@example.com">travel@example.com</a>.</p>',
  ].join('\n');
}

const SEEDS: Seed[] = [
  {
    docId: 'doc-vpn-connect',
    questionTitle: 'How do I connect to the VPN?',
    answerDesc:
      '<p>Install <b>GlobalProtect</b> from the <a href="https://software.example.com/globalprotect">software portal</a>, then sign in with your company account.</p><p><img src="https://assets.example.com/helpdesk/vpn-login.png" alt="VPN login screen"></p><p>Portal address: vpn.example.com<br>Use your usual password and approve the MFA prompt.</p>',
    related: ['doc-vpn-error', 'doc-mfa', 'doc-wifi'],
    keywords: ['vpn', 'globalprotect', 'remote access', 'work from home'],
  },
  {
    docId: 'doc-vpn-error',
    questionTitle: 'VPN says authentication failed',
    answerDesc:
      '<p>This usually means your password expired or the MFA prompt timed out.</p>\n<p>1. Reset your password at https://password.example.com<br>2. Reconnect and approve the prompt within 60 seconds.</p><p>Still failing? Open a ticket with the <strong>exact error text</strong>.</p>',
    related: ['doc-password-reset', 'doc-vpn-connect'],
    keywords: ['authentication failed', 'vpn error', 'vpn login'],
  },
  {
    docId: 'doc-password-reset',
    questionTitle: 'How do I reset my password?',
    answerDesc:
      '<p>Go to <a href="https://password.example.com">the password portal</a> and choose <b>Forgot password</b>.</p><p>You will need your phone for the verification code.<br>New passwords need at least 12 characters.</p>',
    related: ['doc-account-locked', 'doc-mfa', 'doc-zh-password'],
    keywords: ['password', 'reset password', 'forgot password', 'change password'],
  },
  {
    docId: 'doc-account-locked',
    questionTitle: 'My account is locked',
    answerDesc:
      '<p>Accounts lock for 15 minutes after 5 wrong passwords. Wait, then try again, or unlock it yourself at https://password.example.com/unlock</p>',
    related: ['doc-password-reset'],
    keywords: ['locked', 'account locked', 'lockout'],
  },
  {
    docId: 'doc-mfa',
    questionTitle: 'How do I set up multi-factor authentication?',
    answerDesc:
      '<p>Install the authenticator app on your phone and scan the QR code on <a href="https://mfa.example.com">the MFA page</a>.</p><p><b>Tip:</b> register a second device as a backup.</p>',
    related: ['doc-password-reset', 'doc-vpn-connect'],
    keywords: ['mfa', '2fa', 'authenticator', 'two-factor'],
  },
  {
    docId: 'doc-wifi',
    questionTitle: 'How do I connect to the office Wi-Fi?',
    answerDesc:
      '<p>Join the <b>Corp-Secure</b> network and sign in with your company account.</p><p>Visitors use <b>Corp-Guest</b>; the daily code is shown at reception.</p>',
    related: ['doc-vpn-connect', 'doc-zh-wifi'],
    keywords: ['wifi', 'wi-fi', 'wireless', 'guest network'],
  },
  {
    docId: 'doc-printer',
    questionTitle: 'How do I add a printer?',
    answerDesc:
      '<p>Open <b>Settings → Printers</b> and add <i>FollowMe-Print</i>. Release jobs at any printer with your badge.</p><p>Guide: <a href="https://intranet.example.com/it/printing">printing guide</a></p>',
    related: ['doc-zh-printer', 'doc-software-install'],
    keywords: ['printer', 'printing', 'print', 'scanner'],
  },
  {
    docId: 'doc-expense-submit',
    questionTitle: 'How do I submit an expense claim?',
    answerDesc:
      '<p>Submit claims in <a href="https://expenses.example.com">the expense tool</a>: photograph each receipt, pick a category and send it to your manager.</p><p><strong>Deadline:</strong> 30 days after the expense.</p>',
    related: ['doc-expense-limits', 'doc-travel-policy', 'doc-zh-expense'],
    keywords: ['expense', 'expenses', 'expense claim', 'reimbursement', 'receipt'],
  },
  {
    docId: 'doc-expense-limits',
    questionTitle: 'What are the meal and travel expense limits?',
    answerDesc:
      '<p>Domestic per diem: 60 USD per day.<br>International: see the country table.</p><p>Hotels follow the city caps in the travel policy.</p>',
    related: ['doc-travel-policy', 'doc-expense-submit'],
    keywords: ['per diem', 'meal allowance', 'expense limit', 'travel limit'],
  },
  {
    docId: 'doc-leave-request',
    questionTitle: 'How do I request annual leave?',
    answerDesc:
      '<p>Request leave in the HR portal under <b>Time off → New request</b>. Your manager gets a notification and usually answers within two working days.</p>',
    related: ['doc-sick-leave', 'doc-zh-annual-leave'],
    keywords: ['annual leave', 'vacation', 'time off', 'holiday', 'pto', 'leave'],
  },
  {
    docId: 'doc-sick-leave',
    questionTitle: 'How do I report sick leave?',
    answerDesc:
      "<p>Tell your manager before 10:00 on the first day, then record it in the HR portal.<br>From the fourth day a doctor's note is needed.</p>",
    related: ['doc-leave-request'],
    keywords: ['sick leave', 'sick', 'ill'],
    matchFlag: 2,
  },
  {
    docId: 'doc-payroll-date',
    questionTitle: 'When is payday?',
    answerDesc:
      '<p>Salaries are paid on the <b>25th</b> of each month, or the last working day before it.</p>',
    related: ['doc-payslip', 'doc-zh-payroll'],
    keywords: ['payday', 'payroll', 'salary', 'pay date'],
  },
  {
    docId: 'doc-payslip',
    questionTitle: 'Where can I find my payslip?',
    answerDesc:
      '<p>Payslips are in the HR portal under <a href="https://hr.example.com/payslips">My payslips</a>, from the 23rd of each month.</p>',
    related: ['doc-payroll-date'],
    keywords: ['payslip', 'pay stub', 'pay slip'],
  },
  {
    docId: 'doc-laptop-request',
    questionTitle: 'How do I request a new laptop?',
    answerDesc:
      '<p>Laptops are replaced every four years. Order one in <a href="https://it.example.com/catalog">the IT catalog</a> with your manager\'s approval.</p>',
    related: ['doc-software-install'],
    keywords: ['laptop', 'new laptop', 'computer', 'hardware'],
  },
  {
    docId: 'doc-software-install',
    questionTitle: 'How do I install software?',
    answerDesc:
      '<p>Open <b>Software Center</b> and install from the approved list.\nNot listed? Request it at https://it.example.com/software-request</p>',
    related: ['doc-laptop-request'],
    keywords: ['install software', 'software', 'application', 'license'],
  },
  {
    docId: 'doc-email-mobile',
    questionTitle: 'How do I set up email on my phone?',
    answerDesc:
      '<p>Install Outlook from your app store and sign in with your company e-mail address. Approve the device-management prompt.</p>',
    related: ['doc-mfa'],
    keywords: ['email', 'e-mail', 'outlook', 'mobile mail'],
  },
  {
    docId: 'doc-travel-policy',
    questionTitle: 'What is the travel policy?',
    answerDesc: travelPolicyAnswer(),
    related: ['doc-expense-limits', 'doc-expense-submit'],
    keywords: ['travel policy', 'business trip', 'travel'],
  },
  {
    docId: 'doc-helpdesk-overview',
    questionTitle: 'What can the helpdesk help me with?',
    answerDesc:
      '<p>The helpdesk answers questions about <b>IT</b>, <b>HR</b> and <b>finance</b>. Pick a topic below, or open a ticket at <a href="https://helpdesk.example.com">helpdesk.example.com</a>.</p>',
    related: [
      'doc-vpn-connect',
      'doc-password-reset',
      'doc-wifi',
      'doc-printer',
      'doc-expense-submit',
      'doc-leave-request',
      'doc-payroll-date',
      'doc-laptop-request',
      'doc-software-install',
      'doc-benefits',
    ],
    keywords: ['helpdesk', 'service desk', 'it support'],
  },
  {
    docId: 'doc-benefits',
    questionTitle: 'What benefits do I get?',
    answerDesc:
      '<p>Health insurance, a pension plan and a yearly wellbeing budget. Details: <a href="https://hr.example.com/benefits">benefits overview</a>.</p>',
    related: ['doc-payroll-date'],
    keywords: ['benefits', 'insurance', 'pension', 'wellbeing'],
  },
  {
    docId: 'doc-old-vpn-client',
    questionTitle: 'How do I install the old Cisco VPN client?',
    answerDesc: '<p>The Cisco client was retired; use GlobalProtect instead.</p>',
    related: [],
    keywords: ['cisco', 'anyconnect'],
    usedFlag: 1,
  },
  {
    docId: 'doc-open-enrollment-2020',
    questionTitle: 'How do I join the 2020 open enrollment?',
    answerDesc: '<p>The 2020 open enrollment window is closed.</p>',
    related: [],
    keywords: ['open enrollment'],
    auditStatus: 2,
    effectTime: '2020-01-01 00:00:00',
    invalidTime: '2021-01-01 00:00:00',
  },
  {
    docId: 'doc-zh-expense',
    questionTitle: '如何报销差旅费用？',
    answerDesc:
      '<p>登录<a href="https://expenses.example.com">费用系统</a>，上传发票照片并选择费用类别，提交给直属经理审批。</p><p><b>注意：</b>请在费用发生后30天内提交，逾期不予报销。<br>发票抬头必须是公司全称。</p>',
    related: ['doc-zh-invoice', 'doc-expense-submit'],
    keywords: ['报销', '差旅费', '报销流程', '费用报销'],
  },
  {
    docId: 'doc-zh-invoice',
    questionTitle: '发票抬头怎么开？',
    answerDesc:
      '<p>发票抬头：<strong>示例科技有限公司</strong><br>税号：91310000MA1EXAMPLE</p>\n<p>开票信息也可在 https://finance.example.com/invoice 查询。</p>',
    related: ['doc-zh-expense'],
    keywords: ['发票', '抬头', '税号', '开票'],
  },
  {
    docId: 'doc-zh-leave',
    questionTitle: '如何申请请假？',
    answerDesc:
      '<p>在人事系统中选择<b>请假申请</b>，填写假期类型和日期后提交，经理审批后生效。</p><p><b>提示：</b>病假超过三天需提供医院证明。</p>',
    related: ['doc-zh-annual-leave', 'doc-zh-overtime'],
    keywords: ['请假', '休假', '事假', '病假'],
  },
  {
    docId: 'doc-zh-annual-leave',
    questionTitle: '我有多少天年假？',
    answerDesc:
      '<p>工作满一年不满十年：<b>5天</b>；满十年不满二十年：<b>10天</b>；满二十年：<b>15天</b>。</p><p>剩余年假可在人事系统首页查看。</p>',
    related: ['doc-zh-leave', 'doc-leave-request'],
    keywords: ['年假', '带薪年假', '年休假'],
  },
  {
    docId: 'doc-zh-password',
    questionTitle: '忘记密码怎么办？',
    answerDesc:
      '<p>请访问<a href="https://password.example.com">密码自助平台</a>，点击<b>忘记密码</b>，通过手机验证码重置。</p><p><img src="https://assets.example.com/helpdesk/password-reset-zh.png" alt="重置密码"></p><p><b>注意：</b>新密码至少12位，且不能与最近5次相同。</p>',
    related: ['doc-password-reset', 'doc-zh-vpn'],
    keywords: ['密码', '忘记密码', '重置密码', '改密码'],
  },
  {
    docId: 'doc-zh-vpn',
    questionTitle: '如何连接公司VPN？',
    answerDesc:
      '<p>安装<b>GlobalProtect</b>客户端，门户地址填写 vpn.example.com，使用公司账号登录。</p>\n<p>详见<a href="https://intranet.example.com/it/vpn">远程办公指南</a>。</p>',
    related: ['doc-zh-password', 'doc-vpn-connect'],
    keywords: ['远程办公', '远程访问', '连vpn', '连接vpn'],
  },
  {
    docId: 'doc-zh-wifi',
    questionTitle: '办公室无线网络怎么连？',
    answerDesc:
      '<p>员工连接<b>Corp-Secure</b>，使用公司账号登录；访客连接<b>Corp-Guest</b>，密码请咨询前台。</p>',
    related: ['doc-wifi'],
    keywords: ['无线', '无线网络', 'wifi密码', '连不上网'],
  },
  {
    docId: 'doc-zh-printer',
    questionTitle: '打印机无法打印怎么办？',
    answerDesc:
      '<p>请先检查是否缺纸或卡纸，然后在电脑上删除并重新添加<b>FollowMe-Print</b>打印机。<br>仍无法解决请提交IT工单。</p>',
    related: ['doc-printer'],
    keywords: ['打印机', '打印', '卡纸'],
  },
  {
    docId: 'doc-zh-payroll',
    questionTitle: '工资什么时候发？',
    answerDesc: '<p>每月<b>25日</b>发放工资，遇节假日提前至最近的工作日。工资条可在人事系统查看。</p>',
    related: ['doc-zh-social-insurance', 'doc-payroll-date'],
    keywords: ['工资', '发薪', '薪资', '工资条'],
  },
  {
    docId: 'doc-zh-social-insurance',
    questionTitle: '社保和公积金怎么查询？',
    answerDesc:
      '<p>可登录当地社保局网站或使用“个人所得税”App查询。公司缴纳明细见人事系统<b>我的福利</b>页面。</p>',
    related: ['doc-zh-payroll'],
    keywords: ['社保', '公积金', '五险一金'],
  },
  {
    docId: 'doc-zh-onboarding',
    questionTitle: '新员工入职需要准备什么？',
    answerDesc:
      '<p>请携带身份证、学历证书、离职证明和一寸照片，于入职当天9:00到前台报到。</p><p>入职指南：https://hr.example.com/onboarding</p>',
    related: ['doc-zh-password', 'doc-zh-wifi'],
    keywords: ['入职', '新员工', '报到'],
  },
  {
    docId: 'doc-zh-meeting-room',
    questionTitle: '如何预订会议室？',
    answerDesc: '<p>在日历中新建会议，点击<b>添加会议室</b>选择空闲房间即可。</p>',
    related: [],
    keywords: ['会议室', '订会议室', '预订会议室'],
  },
  {
    docId: 'doc-zh-overtime',
    questionTitle: '加班怎么申请调休？',
    answerDesc: '<p>加班需提前在人事系统提交<b>加班申请</b>，审批后可在三个月内申请调休。</p>',
    related: ['doc-zh-leave'],
    keywords: ['加班', '调休'],
    matchFlag: 1,
  },
  {
    docId: 'doc-zh-old-expense',
    questionTitle: '旧版报销系统入口在哪里？',
    answerDesc: '<p>旧版报销系统已停用。</p>',
    related: [],
    keywords: ['旧版报销'],
    usedFlag: 1,
  },
  {
    docId: 'doc-zh-spring-festival-2099',
    questionTitle: '2099年春节放假安排',
    answerDesc: '<p>放假安排尚未公布。</p>',
    related: [],
    keywords: ['春节放假'],
    auditStatus: 2,
    effectTime: '2099-01-01 00:00:00',
    invalidTime: '2099-12-31 23:59:59',
  },
];

export const POPULAR_DOC_IDS: Record<Language, readonly string[]> = {
  en: ['doc-password-reset', 'doc-vpn-connect', 'doc-expense-submit', 'doc-leave-request', 'doc-wifi'],
  zh: ['doc-zh-password', 'doc-zh-expense', 'doc-zh-leave', 'doc-zh-annual-leave', 'doc-zh-invoice'],
};

export function seedEntries(): KnowledgeEntry[] {
  return entriesFrom(SEEDS, 1);
}

/** Question and answer ids numbered from `firstNumber` (q-0001, a-0001, …). */
export function entriesFrom(seeds: readonly Seed[], firstNumber: number): KnowledgeEntry[] {
  return seeds.map((seed, index) => {
    const number = String(firstNumber + index).padStart(4, '0');
    const language = languageOf(seed.questionTitle);
    return {
      ...seed,
      language,
      questionId: `q-${number}`,
      answerId: `a-${number}`,
      questionTypeId: seed.questionTypeId ?? (language === 'zh' ? 'qt-zh-general' : 'qt-en-general'),
      matchFlag: seed.matchFlag ?? 0,
      usedFlag: seed.usedFlag ?? 0,
      auditStatus: seed.auditStatus ?? 1,
      robotFlag: seed.robotFlag ?? 1,
      related: [...seed.related],
      keywords: [...seed.keywords],
    };
  });
}

export class KnowledgeBase {
  private readonly entries = new Map<string, KnowledgeEntry>();

  constructor(entries: KnowledgeEntry[]) {
    for (const entry of entries) this.entries.set(entry.docId, entry);
  }

  get(docId: string): KnowledgeEntry | undefined {
    return this.entries.get(docId);
  }

  all(): KnowledgeEntry[] {
    return [...this.entries.values()];
  }

  /** Times read as UTC. */
  isAnswerable(entry: KnowledgeEntry, nowMs: number): boolean {
    if (entry.usedFlag !== 0) return false;
    if (entry.auditStatus !== 2) return true;
    const effect = parseDateTime(entry.effectTime);
    const invalid = parseDateTime(entry.invalidTime);
    if (effect !== undefined && nowMs < effect) return false;
    if (invalid !== undefined && nowMs >= invalid) return false;
    return true;
  }

  answerable(docId: string, nowMs: number): KnowledgeEntry | undefined {
    const entry = this.entries.get(docId);
    return entry && this.isAnswerable(entry, nowMs) ? entry : undefined;
  }

  update(docId: string, changes: Partial<Omit<KnowledgeEntry, 'docId'>>): void {
    const entry = this.entries.get(docId);
    if (entry) this.entries.set(docId, { ...entry, ...changes });
  }
}
