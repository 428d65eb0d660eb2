// Which messages a channel in `questions` mode answers on its own: the rule, case by case.
import { describe, expect, it } from 'vitest';
import { readsAsQuestion } from '../../../src/conversation/question-detector.js';

describe('readsAsQuestion', () => {
  it.each(['VPN is down again?', 'vpn down ?  ', 'VPN 连不上？', 'printer?\n', '?'])(
    'asks when it ends with a question mark: %j',
    (text) => {
      expect(readsAsQuestion(text)).toBe(true);
    },
  );

  it.each([
    'how do I reset my password',
    'What is the Wi-Fi password',
    'WHERE is the printer',
    'when is payday',
    'why is the VPN slow',
    'who approves leave',
    'which form do I need',
    'can someone help with the VPN',
    'could you reset my account',
    'do we have a holiday on Monday',
    'does the VPN work from China',
    'Is it down for everyone',
    'are expense claims paid monthly',
    'should I update my laptop',
    'may I bring a guest',
    'will the office be open',
    'would it be ok to work from home',
    "what's the guest Wi-Fi code",
    'how, exactly, do I log in',
  ])('asks when it starts with an English question word: %j', (text) => {
    expect(readsAsQuestion(text)).toBe(true);
  });

  it.each([
    'Isaac said the printer is fixed',
    'Howdy all',
    'Whatever works for you',
    'Cannot log in since this morning',
    'Issue with the VPN',
    'Dogs are welcome on Fridays',
    'Canteen is closed today',
    'Do-it-yourself guide posted in the wiki',
    'Thanks, that worked',
    'the VPN is down. how annoying',
    'I know how to do it',
  ])('does not ask when an English question word is only part of a word, or not first: %j', (text) => {
    expect(readsAsQuestion(text)).toBe(false);
  });

  it.each([
    '怎么连接VPN',
    '如何报销',
    '为什么打印机不工作',
    '什么时候发工资',
    '哪里可以领电脑',
    '谁负责审批',
    '能否帮我重置密码',
  ])('asks when it starts with a Chinese question word: %j', (text) => {
    expect(readsAsQuestion(text)).toBe(true);
  });

  it.each([
    '无线网络连不上怎么办',
    '打印机在哪',
    '报销流程是什么',
    '这个月的工资为什么少了',
    '新电脑找谁领',
    '年假还剩多少天',
    '会议室明天有没有空',
    '周末能不能远程办公',
    '我知道怎么连VPN了',
  ])('asks when a Chinese question word is anywhere in the sentence, with no question mark: %j', (text) => {
    expect(readsAsQuestion(text)).toBe(true);
  });

  it.each(['VPN 好了吗', '打印机在哪呢', '你能帮我吗。', '密码重置了吗！！ ', '可以吗~', '今天开会吗 \n'])(
    'asks when 吗 or 呢 ends it, before any punctuation: %j',
    (text) => {
      expect(readsAsQuestion(text)).toBe(true);
    },
  );

  it.each(['吗的意思', '打印机修好了。', '呢子大衣', '谢谢', '可以远程办公', '午饭吃了'])(
    'does not ask when 吗 or 呢 is not at the end, and no question word is there: %j',
    (text) => {
      expect(readsAsQuestion(text)).toBe(false);
    },
  );

  it('reads past leading mentions, the punctuation after them and whitespace', () => {
    expect(readsAsQuestion('<@U123> how do I reset my password')).toBe(true);
    expect(readsAsQuestion('  <@U123|alice>: what is the VPN address')).toBe(true);
    expect(readsAsQuestion('<!subteam^S1|@it-help> <@U2>, can you help')).toBe(true);
    expect(readsAsQuestion('<!here> 怎么连打印机')).toBe(true);
    expect(readsAsQuestion('<@U123> thanks for the help')).toBe(false);
    expect(readsAsQuestion('<#C123|general> how')).toBe(false);
  });

  it.each(['', '   ', '\n\t', '<@U123>', '<@U123> '])('is false for nothing to read: %j', (text) => {
    expect(readsAsQuestion(text)).toBe(false);
  });

  it('needs the question mark at the very end, whitespace aside', () => {
    expect(readsAsQuestion('Fixed? yes, the printer works now')).toBe(false);
    expect(readsAsQuestion('Printer fixed :question:')).toBe(false);
  });

  it('gives the same answer however often it is asked (no regex state kept between calls)', () => {
    for (let round = 0; round < 3; round += 1) {
      expect(readsAsQuestion('how do I print')).toBe(true);
      expect(readsAsQuestion('Isaac said')).toBe(false);
    }
  });

  // Inputs long enough that a pattern retrying from every character takes minutes, so a bound far
  // above a linear scan's cost on a loaded machine still tells them apart (no timing flake).
  it.each([
    ['long chatter', 'lunch is at noon, see you there '.repeat(3000)],
    ['many leading mentions', `${'<@U1> '.repeat(20_000)}thanks`],
    ['unclosed mentions', '<@'.repeat(50_000)],
    ['a mention that never closes', `<@U1|${'a'.repeat(100_000)}`],
    ['punctuation after no particle', `ok${'。'.repeat(50_000)}`],
  ])('stays linear on %s', (_name, text) => {
    const started = performance.now();
    for (let round = 0; round < 10; round += 1) expect(readsAsQuestion(text)).toBe(false);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
