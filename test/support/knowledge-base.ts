// Edits an entry of the simulator's knowledge base the way an operator would: through the platform's
// own knowledge-update operation, so e2e tests can make the robot answer with any HTML they need.
import { PlatformClient, type RobotDocUpdateRequest, StaticTokenProvider } from '../../src/platform/index.js';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator } from '../../src/simulator/index.js';

export async function updateKnowledgeEntry(
  simulator: Simulator,
  request: RobotDocUpdateRequest,
): Promise<void> {
  const platform = new PlatformClient({
    openUrl: simulator.url,
    baseUrl: simulator.url,
    tokenProvider: new StaticTokenProvider(DEFAULT_SIMULATOR_TOKEN),
    timeouts: { connectMs: 1000, headersMs: 2000, bodyMs: 2000 },
  });
  try {
    await platform.updateRobotDoc(request);
  } finally {
    await platform.close();
  }
}
