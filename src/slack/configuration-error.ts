/** A setting the Slack side cannot honour: start-up reports it as one line, like an invalid variable. */
export class GatewayConfigurationError extends Error {
  readonly code = 'GATEWAY_CONFIGURATION' as const;
  constructor(readonly problem: string) {
    super(problem);
    this.name = 'GatewayConfigurationError';
  }
}
