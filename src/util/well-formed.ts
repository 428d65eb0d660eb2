// A lone surrogate makes encodeURIComponent throw and turns into mojibake or a refusal anywhere else.
/** A lone surrogate becomes U+FFFD; copied only where something changed, so usually nothing is allocated. */
export function wellFormed<T>(value: T): T {
  return fix(value) as T;
}

/** JSON.stringify escapes a lone surrogate, and only then. */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/** Serializes once and looks for an escaped surrogate: cheaper than walking every string first. */
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

/** A Buffer or a stream is neither. */
export function isJsonContainer(value: unknown): value is object {
  return Array.isArray(value) || isPlainObject(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
