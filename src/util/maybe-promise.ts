// Values a step may give at once or later: what it gives at once is used at once, with no extra turn.

/** `next(value)`, now when the value is here, once it resolves otherwise. */
export function afterValue<T, R>(value: T | Promise<T>, next: (value: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
