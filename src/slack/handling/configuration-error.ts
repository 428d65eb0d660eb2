import { CodedError } from '../../util/coded-error.js';

/** Start-up reports it as one line, like an invalid variable. */
export class GatewayConfigurationError extends CodedError<'GATEWAY_CONFIGURATION'> {
  readonly code = 'GATEWAY_CONFIGURATION' as const;
  constructor(readonly problem: string) {
    super(problem);
  }
}
