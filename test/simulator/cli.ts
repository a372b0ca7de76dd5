// Runs the simulator on its own, for manual testing of the extension:
//   node out/test/simulator/cli.js [--port 4010] [--project demo-project]... [--demo]
//                                  [--job-duration-ms N] [--latency-ms N] [--seed N] [--today YYYY-MM-DD]
// Prints the URL and a usable API key, and stops cleanly on SIGINT/SIGTERM.

import { DEMO_API_KEY, seedDemo } from './demo';
import { DEFAULT_PROJECT, startSimulator } from './server';
import type { SimulatorOptions } from './types';

const USAGE = `Usage: cli.js [options]
  --port N              port on 127.0.0.1 (default 4010; 0 = any free port)
  --project ID          a known project id; repeat for several (default ${DEFAULT_PROJECT})
  --demo                seed demo jobs into every project
  --job-duration-ms N   how long a job stays active (default 30000)
  --latency-ms N        delay every answer by N ms (default 0)
  --seed N              visitors data seed (default 42)
  --today YYYY-MM-DD    last day of the visitors data (default today, UTC)
  --help                show this help`;

interface CliOptions {
  simulator: SimulatorOptions & { port: number; projects: string[] };
  demo: boolean;
}

class UsageError extends Error {}

function parseArgs(args: readonly string[]): CliOptions | 'help' {
  const options: CliOptions = { simulator: { port: 4010, projects: [] }, demo: false };
  const { simulator } = options;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = (): string => {
      const next = args[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    const integer = (): number => {
      const text = value();
      if (!/^\d+$/.test(text)) throw new UsageError(`${arg} needs a non-negative integer, got ${JSON.stringify(text)}`);
      return Number(text);
    };
    switch (arg) {
      case '--help':
      case '-h':
        return 'help';
      case '--demo':
        options.demo = true;
        break;
      case '--port':
        simulator.port = integer();
        break;
      case '--project':
        simulator.projects.push(value());
        break;
      case '--job-duration-ms':
        simulator.jobDurationMs = integer();
        break;
      case '--latency-ms':
        simulator.latencyMs = integer();
        break;
      case '--seed':
        simulator.seed = integer();
        break;
      case '--today':
        simulator.today = value();
        break;
      default:
        throw new UsageError(`Unknown option ${JSON.stringify(arg)}`);
    }
  }
  if (simulator.projects.length === 0) simulator.projects.push(DEFAULT_PROJECT);
  return options;
}

async function main(): Promise<void> {
  const parsed = parseArgs(process.argv.slice(2));
  if (parsed === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const sim = await startSimulator(parsed.simulator);
  if (parsed.demo) for (const project of parsed.simulator.projects) seedDemo(sim, project);

  process.stdout.write(
    [
      `Mintlify API simulator listening on ${sim.url}`,
      `  API base URL: ${sim.url}`,
      `  API key:      ${DEMO_API_KEY}  (any mint_ admin key works, not mint_dsc_ or mint_us_)`,
      `  Projects:     ${parsed.simulator.projects.join(', ')}`,
      parsed.demo ? '  Demo jobs seeded.' : '  No jobs yet (start with --demo for a demo data set).',
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the simulator\n`);
    void sim.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`Simulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
