// The heading of `/cs agents <group>`: a named group is bold, an id is code, and nothing around them
// is bold too, where Slack would show the nested asterisks as they are.
import type { types } from '@slack/bolt';
import { expect, it } from 'vitest';
import { renderAgents } from '../../../../src/slack/desk/command-views.js';

const GROUPS = [{ id: 'g-it', name: 'IT Service Desk' }];
const AGENTS = [{ id: 's-it-01', name: 'Alice Chen' }];

function heading(blocks: types.KnownBlock[]): string {
  const [first] = blocks;
  return first?.type === 'section' ? (first.text?.text ?? '') : '';
}

it('bolds a named group alone, and shows an id in code, in both languages', () => {
  const named = renderAgents('en', '/cs', { kind: 'agents', groupId: 'g-it', agents: AGENTS }, GROUPS);
  expect(heading(named.blocks)).toBe('Agents of *IT Service Desk* (1)');
  expect(named.text).toBe('Agents of IT Service Desk (1)');
  const byId = renderAgents('en', '/cs', { kind: 'agents', groupId: 'g-hr', agents: AGENTS }, GROUPS);
  expect(heading(byId.blocks)).toBe('Agents of `g-hr` (1)');
  const chinese = renderAgents('zh-CN', '/cs', { kind: 'agents', groupId: 'g-it', agents: AGENTS }, GROUPS);
  expect(heading(chinese.blocks)).toBe('*IT Service Desk* 的客服（1）');
});
