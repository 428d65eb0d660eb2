// AGENT_GROUPS read into named groups, and what an operator types resolved to one of them.
import { describe, expect, it } from 'vitest';
import { findAgentGroup, parseAgentGroups } from '../../../src/service-desk/agent-groups.js';

const GROUPS = [
  { id: 'g-it', name: 'IT Service Desk' },
  { id: 'g-hr', name: 'HR Service' },
];

describe('findAgentGroup', () => {
  it('finds a group by its name in any case and spacing, several words long', () => {
    expect(findAgentGroup(GROUPS, 'IT Service Desk')).toEqual(GROUPS[0]);
    expect(findAgentGroup(GROUPS, '  it   service DESK ')).toEqual(GROUPS[0]);
    expect(findAgentGroup(GROUPS, 'ＨＲ Service')).toEqual(GROUPS[1]);
  });

  it('finds a group by its id, and nothing for a name no group has', () => {
    expect(findAgentGroup(GROUPS, 'g-hr')).toEqual(GROUPS[1]);
    expect(findAgentGroup(GROUPS, 'IT Service')).toBeUndefined();
    expect(findAgentGroup(GROUPS, '')).toBeUndefined();
  });
});

describe('parseAgentGroups', () => {
  it('reads id=name pairs separated by commas, names with spaces', () => {
    expect(parseAgentGroups(' g-it = IT  Service Desk , g-hr=HR Service,')).toEqual({
      groups: GROUPS,
      problems: [],
    });
  });

  it('names every bad pair by its place, once each', () => {
    const { problems } = parseAgentGroups(
      'g-it=IT, nothing, =Nameless, g-x=, g-it=Again, g-y=it, has space=X',
    );
    expect(problems).toEqual([
      { kind: 'not_a_pair', index: 2 },
      { kind: 'bad_id', index: 3 },
      { kind: 'bad_name', index: 4 },
      { kind: 'duplicate_id', index: 5 },
      { kind: 'duplicate_name', index: 6 },
      { kind: 'bad_id', index: 7 },
    ]);
  });
});
