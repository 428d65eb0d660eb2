// How a failed call is told: one sentence per failure kind; a room naming what failed words it itself.
import type { Locale } from '../../conversation/locale.js';
import type { FailureReason } from '../../conversation/types.js';
import { catalog, translator } from './i18n.js';

const en = {
  refused:
    'The answer service refused this request. Please try again; if it keeps happening, tell your Slack admin.',
  unavailable: 'The answer service is unavailable right now. Please try again in a moment.',
  malformed: "The answer service sent a reply I couldn't read. Please try again.",
  timeout: 'The answer service took too long to reply. Please try again.',
  // Not reached or unavailable, the asker can only try later.
  unreachable: 'The answer service is unavailable right now. Please try again in a moment.',
  too_slow: 'This question took too long to answer, so I stopped waiting for it. Please try again.',
  store_unavailable: "I can't reach my storage right now. Please try again in a moment.",
  internal: 'Something went wrong on my side. Please try again.',
  busy: 'The robot is busy with many questions right now, so yours was not asked. Please try again in a moment.',
} as const satisfies Record<FailureReason, string>;

export const failureWording = catalog(en, {
  refused: '问答服务拒绝了这个请求。请再试一次；如果一直这样，请联系 Slack 管理员。',
  unavailable: '问答服务暂时不可用，请稍后再试。',
  malformed: '问答服务返回了无法识别的回复，请再试一次。',
  timeout: '问答服务响应超时，请再试一次。',
  unreachable: '问答服务暂时不可用，请稍后再试。',
  too_slow: '这个问题处理时间过长，我已停止等待。请再试一次。',
  store_unavailable: '内部存储暂时无法访问，请稍后再试。',
  internal: '我这边出了点问题，请再试一次。',
  busy: '机器人正忙，同时收到的问题太多，你的问题还没有发出。请稍后再试一次。',
});

export const failureText: (locale: Locale, reason: FailureReason) => string = translator(failureWording);
