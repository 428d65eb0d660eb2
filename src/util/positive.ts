// The range checks of numeric settings: a refusal names the setting, in the same words everywhere.

/** A RangeError naming `name` unless `value` is above zero. */
export function positive(name: string, value: number): number {
  if (!(value > 0)) throw new RangeError(`${name} must be positive, got ${value}`);
  return value;
}

/** A RangeError naming `name` unless `value` is a whole number above zero. */
export function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
  return value;
}
