export {
  DEFAULT_SIMULATOR_APP_ID,
  DEFAULT_SIMULATOR_APP_KEY,
  DEFAULT_SIMULATOR_PORT,
  DEFAULT_SIMULATOR_TOKEN,
} from './defaults.js';
export type { Fault } from './faults.js';

export type { Simulator, SimulatorOptions } from './server.js';
export { startSimulator } from './server.js';
export { SERVICE_GROUPS, TICKET_TYPES } from './tickets.js';
