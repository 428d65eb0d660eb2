// Strings that leave the process (to Slack, to the platform) must be well-formed UTF-16: a lone
// surrogate makes encodeURIComponent throw and turns into mojibake or a refusal anywhere else.

/**
 * `value` with every string in it made well formed (a lone surrogate becomes U+FFFD). Plain objects
 * and arrays are copied only where something changed, so the common case allocates nothing.
 */
export function wellFormed<T>(value: T): T {
  return fix(value) as T;
}

function fix(value: unknown): unknown {
  if (typeof value === 'string') return value.isWellFormed() ? value : value.toWellFormed();
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      const fixed = fix(item);
      if (fixed !== item) {
        copy ??= value.slice();
        copy[index] = fixed;
      }
    }
    return copy ?? value;
  }
  if (isPlainObject(value)) {
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const item = value[key];
      const fixed = fix(item);
      if (fixed !== item) {
        copy ??= { ...value };
        copy[key] = fixed;
      }
    }
    return copy ?? value;
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
