// The simulated robots by robotFlag: any number but 1 and 2 answers every question as unmatched.
import { IT_DESK_POPULAR_DOC_IDS, itDeskEntries } from './it-desk.js';
import { KnowledgeBase, type Language, POPULAR_DOC_IDS, seedEntries } from './knowledge-base.js';

export interface RobotDesk {
  knowledgeBase: KnowledgeBase;
  popular: Readonly<Record<Language, readonly string[]>>;
  guide: Readonly<Record<Language, string>>;
}

/** For a question without robotFlag. */
export const DEFAULT_ROBOT_FLAG = 1;

function seedDesks(): Map<number, RobotDesk> {
  return new Map([
    [
      1,
      {
        knowledgeBase: new KnowledgeBase(seedEntries()),
        popular: POPULAR_DOC_IDS,
        guide: {
          en: "Hello! I'm the employee helpdesk robot. Ask me about VPN, passwords, expenses, leave or payroll.",
          zh: '你好！我是员工服务台机器人，可以问我VPN、密码、报销、请假、工资等问题。',
        },
      },
    ],
    [
      2,
      {
        knowledgeBase: new KnowledgeBase(itDeskEntries()),
        popular: IT_DESK_POPULAR_DOC_IDS,
        guide: {
          en: "Hello! I'm the IT desk robot. Ask me about the VPN, passwords, Wi-Fi, printing, laptops or software.",
          zh: '你好！我是IT服务台机器人，可以问我VPN、密码、无线网络、打印、电脑和软件等问题。',
        },
      },
    ],
  ]);
}

export class Robots {
  private readonly desks: ReadonlyMap<number, RobotDesk>;

  constructor(desks: ReadonlyMap<number, RobotDesk> = seedDesks()) {
    const owners = new Map<string, number>();
    for (const [robotFlag, desk] of desks) {
      for (const entry of desk.knowledgeBase.all()) {
        // An edit names only the docId: two robots holding one would make it ambiguous.
        const owner = owners.get(entry.docId);
        if (owner !== undefined)
          throw new Error(`${entry.docId} is in robot ${owner} and robot ${robotFlag}`);
        owners.set(entry.docId, robotFlag);
      }
    }
    this.desks = desks;
  }

  desk(robotFlag: number | undefined): RobotDesk | undefined {
    return this.desks.get(robotFlag ?? DEFAULT_ROBOT_FLAG);
  }

  holding(docId: string): KnowledgeBase | undefined {
    return [...this.desks.values()].find((desk) => desk.knowledgeBase.get(docId))?.knowledgeBase;
  }

  entryCount(): number {
    return [...this.desks.values()].reduce((count, desk) => count + desk.knowledgeBase.all().length, 0);
  }
}
