// Strings that leave the process (to Slack, to the platform) must be well-formed UTF-16: a lone
// surrogate makes encodeURIComponent throw and turns into mojibake or a refusal anywhere else.

/**
 * `value` with every string in it made well formed (a lone surrogate becomes U+FFFD). Plain objects
 * and arrays are copied only where something changed, so the common case allocates nothing.
 */
export function wellFormed<T>(value: T): T {
  return fix(value) as T;
}

/** JSON.stringify writes a lone surrogate as an escape, and only then; a whole pair stays raw. */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/**
 * `value` as JSON with every string in it well formed. Serializes once and looks for an escaped
 * surrogate, which is far cheaper than walking every string first; repairs only when it finds one.
 */
export function wellFormedJson(value: unknown): string {
  const json = JSON.stringify(value);
  return ESCAPED_SURROGATE.test(json) ? JSON.stringify(wellFormed(value)) : json;
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

/** An array or a plain object: what JSON.stringify writes as [] or {} (a Buffer or a stream is neither). */
export function isJsonContainer(value: unknown): value is object {
  return Array.isArray(value) || isPlainObject(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
