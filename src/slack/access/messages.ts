// What the operator gate tells a non-operator: what was refused, and who can grant it.
import { catalog, translator } from '../kit/i18n.js';

const en = {
  operators_only: 'Only operators can {what}. To be made one, ask {who}.',
  operators_none_configured:
    'Nobody has been made an operator yet, so nobody can {what}. Ask {who} to name the operators.',
  refused_what:
    '{subject, select, tickets {see the service desk’s tickets} statistics {see the service desk’s statistics} agents {see the service desk’s agents} channels {see or change how the app behaves in channels} knowledge {edit the knowledge base or handle its review cards} other {do this}}',
  administrators: 'the app’s administrators',
} as const;

export const messages = catalog(en, {
  operators_only: '只有管理员才能{what}。如需开通，请联系{who}。',
  operators_none_configured: '还没有设置任何管理员，所以目前没有人能{what}。请联系{who}指定管理员。',
  refused_what:
    '{subject, select, tickets {查看客服工单} statistics {查看客服统计数据} agents {查看客服组的客服} channels {查看或更改应用在频道中的设置} knowledge {编辑知识库或处理审核卡片} other {执行此操作}}',
  administrators: '本应用的管理员',
});

export const t = translator(messages);
