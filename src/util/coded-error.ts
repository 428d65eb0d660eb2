// One shape for every error the app raises on purpose, in every layer: a literal `code` to narrow on
// (`switch (error.code)`), a message for people, and the ES2022 `cause` for what lies beneath.

export abstract class CodedError<Code extends string = string> extends Error {
  abstract readonly code: Code;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export function isCodedError(error: unknown): error is CodedError {
  return error instanceof CodedError;
}
