// Action ids in one actions block must be unique: `home_example:<index>`.

export const HOME_EXAMPLE_ACTION_PATTERN = /^home_example:\d+$/;

export function homeExampleActionId(index: number): string {
  return `home_example:${index}`;
}
